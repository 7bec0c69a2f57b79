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
