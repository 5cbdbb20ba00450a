# -*- Python -*-
# lit configuration for tile-mlir's regression tests.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".py"]
config.excludes = ["CMakeLists.txt", "tile-capi-test.c", "consumer", "README.md", "lit.cfg.py", "lit.site.cfg.py", "lit.site.cfg.py.in", "Inputs"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%tile_obj_root", config.tile_obj_root))
config.substitutions.append(("%llvm_lib_dir", config.llvm_lib_dir))
config.substitutions.append(("%python", config.python_executable))
# Python tests import the package from the source tree and load the C API
# library from the build tree.
config.substitutions.append((
    "%tile_python",
    "env PYTHONPATH={} TILE_MLIR_CAPI={} {}".format(
        os.path.join(config.tile_src_root, "python"),
        os.path.join(config.tile_obj_root, "lib", "libTileCAPI.so"),
        config.python_executable)))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# CPU execution (test/Execution, docs/execution.md): the one pass list that
# takes the output of --tile-lower-to-cpu to the LLVM dialect, and the JIT
# runner with the runtime libraries that `vector.print` needs. Defined before
# the tool substitutions so that `mlir-runner` below resolves to a full path.
config.substitutions.append((
    "%tile_cpu_to_llvm",
    "--expand-strided-metadata --lower-affine --convert-scf-to-cf "
    "--convert-to-llvm --reconcile-unrealized-casts"))
config.substitutions.append((
    "%tile_cpu_runner",
    "mlir-runner -e main -entry-point-result=void -shared-libs="
    + os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so") + ","
    + os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so")))

tool_dirs = [config.tile_tools_dir, config.llvm_tools_dir]
tools = [
    "tile-opt",
    "tile-translate",
    "mlir-opt",
    "mlir-runner",
    "tile-capi-test",
    ToolSubst("%tile_unittests", os.path.join(config.tile_obj_root, "unittests", "TileUnitTests")),
]
# `not` leading a RUN line (LLVM's defaults only substitute `| not`).
tools.append(ToolSubst("not", unresolved="fatal"))
# tile-run exists where the CUDA toolkit was found (TILE_ENABLE_RUNTIME).
if config.tile_enable_runtime:
    tools.append("tile-run")
    config.available_features.add("tile-run")
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Optional features. `ptxas` assembles PTX (the CUDA toolkit, present in CI);
# `cuda-gpu` needs a real GPU and is only set where one answers.
ptxas = shutil.which("ptxas") or (
    os.path.join(config.cuda_root, "bin", "ptxas") if config.cuda_root else None)
if ptxas and os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
if os.environ.get("TILE_TEST_CUDA_GPU") == "1":
    config.available_features.add("cuda-gpu")
    # sm_90a PTX (wgmma) loads only on compute capability 9.0.
    try:
        cap = subprocess.run(
            ["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30).stdout.split()
        if cap and cap[0] == "9.0":
            config.available_features.add("cuda-gpu-sm90")
    except (OSError, subprocess.SubprocessError):
        pass
