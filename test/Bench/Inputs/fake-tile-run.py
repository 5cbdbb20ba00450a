#!/usr/bin/env python3
# Stands in for tile-run in the harness test: answers by the PTX's name
# (good: passes and benches, wrong: fails --check, broken: a driver error).
import json, sys
args = sys.argv[1:]
ptx = args[args.index("--ptx") + 1]
if ptx.endswith("broken.ptx"):
    sys.stderr.write("tile-run: error: cannot load 'broken.ptx' for sm_90: "
                     "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)\n")
    sys.exit(1)
good = ptx.endswith("good.ptx")
out = {"kernel": "k", "gpu": "Fake GPU", "registers": 128, "shared_bytes": 49152,
       "check": {"pass": good, "max_abs_err": 0.004 if good else 3.5}}
if "--bench" in args:
    out["bench"] = {"kernel_tflops": 500.0, "cublas_tflops": 750.0,
                    "ratio": 500.0 / 750.0}
print(json.dumps(out))
sys.exit(0 if good else 1)
