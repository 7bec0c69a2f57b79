// Instance readers: fill the spec's data items from a file, as [instance] says.
// Every error names its place in the instance file.
#pragma once
#include "dsl/diagnostics.hpp"
#include "dsl/spec.hpp"

namespace permjit {

// Reads spec.instance_path; on success every data item is loaded and its symbol knows
// its value(s) and dimensions. Returns false after reporting errors.
bool load_instance(ProblemSpec& spec, Diagnostics& diags);

// The two readers, for tests and for load_instance.
bool read_tsplib(ProblemSpec& spec, const SourceRef& file, Diagnostics& diags);
bool read_layout(ProblemSpec& spec, const SourceRef& file, Diagnostics& diags);

// Marks a data item loaded and publishes it to its symbol.
void publish_data(ProblemSpec& spec, DataItem& item);

}  // namespace permjit
