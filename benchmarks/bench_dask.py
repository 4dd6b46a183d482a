"""A resampling batch larger than one worker's share: one process against a
dask.distributed LocalCluster of worker processes.

N=32 C=64 56x56 f32 -> 112x112 bilinear (26 MB in, 103 MB out), NCHW:

* one process: ``dnnl.resample`` of the numpy array (the kernels' OpenMP
  threads: OMP_NUM_THREADS, default every core);
* the cluster: ``dnnl.resample`` of a dask array chunked along the batch,
  computed on ``--workers`` processes of one thread each (distributed sets
  OMP_NUM_THREADS=1 in its workers), the input shipped to the workers and
  the result back (``client.compute``);
* the cluster, data in place: the input already on the workers
  (``client.persist``), the result left there (``persist`` + ``wait``): the
  compute and the scheduling without the transfers.

Both results are checked equal, bit for bit. Needs ``pip install "dnnl-python[dask]"``.

Run: ``python benchmarks/bench_dask.py [--workers 2] [--repeat 5] [--chunk 4]``.
Times are the best of ``--repeat`` runs, in milliseconds.
"""
import argparse
import os
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import dnnl  # noqa: E402

N, C, H, W, OUT = 32, 64, 56, 56, (112, 112)


def best_ms(fn, repeat):
    fn()    # warm: primitives made, pages touched, workers' imports done
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return min(ts) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=4, help="batch items per block")
    args = ap.parse_args()

    import dask.array as da
    # the shipped case embeds the numpy input in the graph on purpose
    warnings.filterwarnings("ignore", message=".*[Ll]arge (graph|object)")
    from dask.distributed import Client, LocalCluster, wait

    x = np.random.default_rng(0).standard_normal((N, C, H, W)).astype(np.float32)
    print("resample %dx%dx%dx%d f32 -> %dx%d, bilinear, NCHW; %d cores (os.cpu_count), "
          "OMP_NUM_THREADS=%s" % (N, C, H, W, *OUT, os.cpu_count(),
                                  os.environ.get("OMP_NUM_THREADS", "unset")))
    expected = dnnl.resample(x, OUT)
    one = best_ms(lambda: dnnl.resample(x, OUT), args.repeat)

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=40) as cluster, \
            Client(cluster) as client:
        def batch():
            # a new name every time (name=False): the cluster cannot answer a
            # repeat from results it still holds
            return da.from_array(x, chunks=(args.chunk, C, H, W), name=False)

        got = client.compute(dnnl.resample(batch(), OUT), sync=True)
        assert got.tobytes() == expected.tobytes(), "the cluster's result differs"
        shipped = best_ms(lambda: client.compute(dnnl.resample(batch(), OUT), sync=True),
                          args.repeat)

        times = []
        for _ in range(args.repeat + 1):        # the first run warms up
            placed = client.persist(batch())
            wait(placed)
            t0 = time.perf_counter()
            out = client.persist(dnnl.resample(placed, OUT))
            wait(out)
            times.append(time.perf_counter() - t0)
            del out, placed
        in_place_ms = min(times[1:]) * 1e3

    print("one process (numpy path):               %8.1f ms" % one)
    print("LocalCluster, %d workers x 1 thread:     %8.1f ms  (input shipped, result back)"
          % (args.workers, shipped))
    print("LocalCluster, data in place:            %8.1f ms  (input on the workers, "
          "result left there)" % in_place_ms)


if __name__ == "__main__":
    main()
