#include "tools/permjit/spec_options.hpp"

namespace permjit {

void add_spec_options(CLI::App* cmd, LoadOptions& load) {
  cmd->add_option("spec", load.spec_path, "the problem spec (.toml)")->required();
  cmd->add_option("--param,-p", load.params, "set a parameter: name=value (repeatable)");
  cmd->add_option("--instance,-i", load.instance_path, "the instance file the spec reads its data from");
  cmd->add_option("--record", load.instance_record,
                  "for a file of one instance per line (e.g. korf100.txt): the line to read, from 1");
  load.data = "auto";
  cmd->add_option("--data", load.data,
                  "auto: run-time, unless the unrolled code would read many values at fixed places (default) | "
                  "run-time: the instance's values read when the module loads, one module per shape | "
                  "compiled: the values in the code, one module per instance");
  cmd->add_flag("--no-symmetry", load.ignore_symmetry,
                "search the whole tree, as if the spec declared no [symmetry] (its errors are still reported)");
}

}  // namespace permjit
