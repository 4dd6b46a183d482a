"""What the machine's caches hold: the size from which a kernel's outputs are
stored around them.

A platform fact rather than a kernel's: every kind that streams its stores
(the reorder's fused runs, the resampling's plain channel rows) asks the
same question, whether a run's data can stay in the caches.
"""

#: src + dst bytes from which outputs are stored around the caches
#: (non-temporal): the rest of the run would evict them from the caches anyway
#: (glibc's memcpy makes the same choice). The reorder's fused runs
#: (dnnl/primitives/reorder/plan.py) and the resampling's plain channel rows
#: (dnnl/primitives/resampling/plan.py) follow it.
STREAM_BYTES = 1 << 24
