#include "generator/choose_data.hpp"

#include "dsl/run_time_data.hpp"
#include "generator/generate.hpp"

namespace permjit {

DataChoice settle_data(ProblemSpec& spec, DataTarget target) {
  DataChoice c;
  c.compiled = !instance_arrays(spec).empty();
  for (const std::string& name : instance_arrays(spec)) c.compiled = c.compiled && !spec.symbols.at(name).run_time_range;
  if (!spec.data_auto) return c;
  spec.data_auto = false;
  c.automatic = true;
  // Without the size or the instance nothing is generated; the values stay where they are.
  if (spec.size == 0 || instance_arrays(spec).empty()) return c;
  keep_data_at_run_time(spec);
  c.run_time_reads = generate_problem(spec).run_time_reads;
  c.compiled = target == DataTarget::device && c.run_time_reads >= kCompileDataFromReads;
  if (c.compiled) compile_data_in(spec);
  return c;
}

std::string describe(const DataChoice& c) {
  std::string s = c.compiled ? "compiled in" : "read at run time";
  if (!c.automatic) return s;
  return s + " (auto: " + std::to_string(c.run_time_reads) + " reads of run-time data once unrolled" +
         (c.compiled ? ", at least " + std::to_string(kCompileDataFromReads) + " on the device" : "") + ")";
}

}  // namespace permjit
