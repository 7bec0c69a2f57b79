// permjit._permjit: the runtime library the CLI links, for Python. permjit/__init__.py
// is the API; these functions take its normalised arguments and return what the CLI
// prints (the result as `solve --json` writes it, so the two cannot drift).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "captured_output.hpp"
#include "errors.hpp"
#include "kept_signal_handlers.hpp"
#include "options.hpp"
#include "runtime/core/version.hpp"
#include "runtime/device/kernel_interrupter.hpp"  // StopSignals
#include "solution_stream.hpp"

namespace nb = nanobind;
using namespace permjit;
using namespace permjit::py;

namespace {

// A progress sample for a Python callable, called from a search thread.
std::function<void(const ProgressSample&)> progress_callback(nb::object fn) {
  if (fn.is_none()) return {};
  auto shared = std::make_shared<nb::object>(std::move(fn));
  return [shared](const ProgressSample& s) {
    nb::gil_scoped_acquire gil;
    try {
      nb::dict d;
      d["elapsed"] = s.elapsed;
      d["explored"] = s.explored;
      d["evaluated"] = s.evaluated;
      nb::object incumbent = nb::none();
      if (s.incumbent) incumbent = nb::cast(*s.incumbent);
      d["incumbent"] = incumbent;
      nb::object bound = nb::none();
      if (s.bound) bound = nb::cast(*s.bound);
      d["bound"] = bound;
      (*shared)(d);
    } catch (nb::python_error& e) {
      e.discard_as_unraisable("permjit progress callback");  // a display's error must not end the search
    }
  };
}

SolveOptions solve_options(const nb::dict& load, const nb::dict& kw, const char* fn) {
  SolveOptions o;
  o.load = load_options(load);
  apply(o, kw, fn);
  return o;
}

std::string solve_json(const nb::dict& load, const nb::dict& kw, const std::string& progress, nb::object on_progress) {
  SolveOptions o = solve_options(load, kw, "solve");
  o.progress = progress == "on" ? SolveOptions::Progress::on
               : progress == "off" ? SolveOptions::Progress::off : SolveOptions::Progress::automatic;
  o.on_progress = progress_callback(std::move(on_progress));
  SolveResult r;
  {
    // The search runs without the GIL: other Python threads go on, and the progress
    // callback can take it.
    nb::gil_scoped_release release;
    KeptSignalHandlers keep;
    r = solve(o);
  }
  return format_json(r);
}

// emit and check: what the CLI command prints on stdout, its stderr and exit status.
std::tuple<int, std::string, std::string> emit_text(const nb::dict& load, const nb::dict& kw) {
  EmitOptions o;
  o.load = load_options(load);
  apply(o, kw, "emit");
  CapturedOutput cap(o.stage == "sass");
  const int rc = emit_command(o);
  std::string out = cap.out();
  return {rc, out, cap.err()};
}

std::tuple<int, std::string, std::string> check_text(const nb::dict& load, const nb::dict& kw) {
  CheckOptions o;
  o.load = load_options(load);
  apply(o, kw, "check");
  CapturedOutput cap;
  const int rc = check_command(o);
  std::string out = cap.out();
  return {rc, out, cap.err()};
}

}  // namespace

NB_MODULE(_permjit, m) {
  m.doc() = "permjit's runtime library (the one the CLI links); use the permjit package";
  register_errors();
  m.attr("__version__") = kPermjitVersion;
  m.def("solve_json", &solve_json, nb::arg("load"), nb::arg("options"), nb::arg("progress"), nb::arg("on_progress").none());
  m.def("emit_text", &emit_text, nb::arg("load"), nb::arg("options"));
  m.def("check_text", &check_text, nb::arg("load"), nb::arg("options"));
  // Whether a search listens for SIGINT and SIGTERM now (a request to stop with the
  // partial result); while a module compiles they end the run (SearchInterrupted).
  m.def("search_listening", &StopSignals::listening);
  nb::class_<SolutionStream>(m, "SolutionStream")
      .def("__init__",
           [](SolutionStream* self, const nb::dict& load, const nb::dict& kw) {
             new (self) SolutionStream(solve_options(load, kw, "solutions"));
           })
      .def("next", &SolutionStream::next, nb::call_guard<nb::gil_scoped_release>())
      .def("close", &SolutionStream::close, nb::call_guard<nb::gil_scoped_release>())
      .def("result_json", &SolutionStream::result_json, nb::call_guard<nb::gil_scoped_release>());
}
