import os
import sys

from dnnl.benchdnn import main

try:
    status = main()
    sys.stdout.flush()
except BrokenPipeError:     # e.g. piped into head
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    status = 1
sys.exit(status)
