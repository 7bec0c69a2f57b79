#include "errors.hpp"

#include <nanobind/stl/string.h>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/host_compiler.hpp"  // CompileError
#include "runtime/solve.hpp"          // SearchInterrupted

namespace nb = nanobind;

namespace permjit::py {

namespace {

// Raises permjit._errors.<name>(*args): the classes live in Python, where users see them.
void raise(const char* name, nb::tuple args) {
  nb::object type = nb::module_::import_("permjit._errors").attr(name);
  nb::object value = type(*args);
  PyErr_SetObject(type.ptr(), value.ptr());
}

nb::list diagnostics(const Diagnostics& d) {
  nb::list out;
  for (const Diagnostic& x : d.all()) {
    if (x.kind != Diagnostic::Kind::error) continue;
    const std::string file = x.loc.file ? x.loc.file->path : "";
    out.append(nb::make_tuple(file, x.loc.line, x.loc.col, x.message, x.hint, render(x)));
  }
  return out;
}

}  // namespace

void register_errors() {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const UserErrors& e) {
      raise("SpecError", nb::make_tuple(e.diags.render(), diagnostics(e.diags)));
    } catch (const CompileError& e) {
      raise("CompileError", nb::make_tuple(std::string(e.what()), e.log, e.saved_source));
    } catch (const SearchInterrupted& e) {
      raise("SearchInterrupted", nb::make_tuple(std::string(e.what()), e.signal));
    } catch (const InternalError& e) {
      raise("InternalError", nb::make_tuple(std::string(e.what())));
    }
  });
}

}  // namespace permjit::py
