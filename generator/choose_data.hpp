// --data auto: where the instance's values live, chosen from the code they would make.
//
// Read at run time, one compiled module serves every instance of a shape. Compiled in,
// every read whose place is fixed once the loops unroll is an immediate: no load, and
// the arithmetic around it folds. Where the node code makes many such reads the second
// wins by far: flowshop with forward branching and LB2 on 20x20 scans 190 machine pairs
// of 20 jobs in bound(), 31,360 reads of the Johnson tables once unrolled; read at run
// time, ta023 at the optimum searched 3.6 s against 1.36 s compiled in and NVRTC took
// 59 s against 9 s (H100, docs/decisions.md, "Data mode auto").
#pragma once
#include <cstdint>
#include <string>

#include "dsl/spec.hpp"

namespace permjit {

// On the host the loads are cheap and the folding buys nothing: the same ta029 forward
// at the optimum on one cpu thread evaluated 1.02-1.08e5 nodes/s with the values read at
// run time against 0.81-0.92e5 compiled in (2-core machine, two rounds). There auto
// keeps them at run time.
//
// Unrolled reads of run-time data from which device code has the values compiled in.
constexpr int64_t kCompileDataFromReads = 4096;

enum class DataTarget { host, device };

struct DataChoice {
  bool compiled = false;       // the values compiled in
  int64_t run_time_reads = 0;  // what the code would read at run time, loops unrolled
  bool automatic = false;      // chosen here (--data auto), not named by the user
};

// For a spec loaded with --data auto (spec.data_auto): generates its source with the
// values at run time, counts the reads (ProblemSource::run_time_reads), and leaves the
// spec with its values at run time or, for the device from kCompileDataFromReads reads,
// compiled in. Call between load_spec and generate_problem. Any other spec is left as
// it is.
DataChoice settle_data(ProblemSpec& spec, DataTarget target);

// One line for a person: where the values live and why.
std::string describe(const DataChoice& c);

}  // namespace permjit
