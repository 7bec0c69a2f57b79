// `permjit solve --records LIST`: which records (lines, from 1, that hold a number) of
// a one-instance-per-line file to solve in one process. LIST is `all`, a record `7`,
// a range `1-100`, or several joined by commas: `3,7,9-12`. Every mistake is a user
// error whose caret points into LIST on the shown command line.
#pragma once
#include <string>
#include <vector>

namespace permjit {

// The records of a file's text: the numbers of its lines that hold anything but blanks.
std::vector<int> records_of(const std::string& text);

// The records LIST names, in its order; each one must be among `available` (from
// records_of) and named once. `file` names the instance in messages. Throws UserErrors.
std::vector<int> parse_record_list(const std::string& list, const std::vector<int>& available, const std::string& file);

}  // namespace permjit
