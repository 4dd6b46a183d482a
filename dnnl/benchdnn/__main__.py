import sys

from dnnl.benchdnn import main

sys.exit(main())
