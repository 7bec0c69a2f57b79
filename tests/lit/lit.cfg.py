# lit configuration: FileCheck tests of what `permjit emit` prints.
import os
import lit.formats

config.name = "permjit"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs"]

config.substitutions.append(("%permjit", config.permjit))
config.substitutions.append(("%problems", os.path.join(config.source_root, "problems")))
config.substitutions.append(("%instances", config.instances))
config.substitutions.append(("%inputs", os.path.join(os.path.dirname(__file__), "Inputs")))
config.substitutions.append(("FileCheck", config.filecheck))
# LLVM's `not` (inverts an exit code) lives beside FileCheck.
config.environment["PATH"] = os.path.dirname(config.filecheck) + os.pathsep + os.environ.get("PATH", "")
# Strict FileCheck, as MLIR and LLVM run it.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope --allow-unused-prefixes=false"
config.environment["PERMJIT_CACHE_DIR"] = os.path.join(config.test_exec_root, "cache")

# `emit --stage sass` needs cuobjdump and nvdisasm where permjit looks for them
# (scripts/install-deps.sh installs them): without them its test is unsupported.
def _tool_dirs():
    home = os.environ.get("HOME", "")
    tools = os.environ.get("PERMJIT_CUDA_TOOLS") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share"), "permjit", "cuda-tools")
    return os.environ.get("PATH", "").split(os.pathsep) + ["/usr/local/cuda/bin", os.path.join(tools, "bin")]
if all(any(os.access(os.path.join(d, t), os.X_OK) for d in _tool_dirs()) for t in ("cuobjdump", "nvdisasm")):
    config.available_features.add("sass")
for v in ("HOME", "XDG_DATA_HOME", "PERMJIT_CUDA_TOOLS"):
    if v in os.environ:
        config.environment[v] = os.environ[v]
