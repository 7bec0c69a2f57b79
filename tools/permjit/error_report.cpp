#include "tools/permjit/error_report.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

namespace permjit {

namespace {

using Json = nlohmann::ordered_json;

Json place_of(const Diagnostic& d) {
  Json j;
  j["message"] = d.message;
  j["file"] = d.loc.file ? Json(d.loc.file->path) : Json(nullptr);
  j["line"] = d.loc.line > 0 ? Json(d.loc.line) : Json(nullptr);
  j["column"] = d.loc.line > 0 ? Json(d.loc.col) : Json(nullptr);
  j["hint"] = d.hint.empty() ? Json(nullptr) : Json(d.hint);
  return j;
}

void print_json(const Json& errors, int status) {
  Json out;
  out["error"] = errors.empty() ? Json(nullptr) : errors.front();
  out["errors"] = errors;
  out["exit_status"] = status;
  // Strings from a spec may hold bytes that are not UTF-8: replace them rather than throw.
  std::cout << out.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n' << std::flush;
}

}  // namespace

int report_user_errors(const UserErrors& e, bool json) {
  std::cerr << e.diags.render();
  const int n = e.diags.error_count();
  std::cerr << n << " error" << (n == 1 ? "" : "s") << '\n';
  if (json) {
    Json errors = Json::array();
    for (const Diagnostic& d : e.diags.all())
      if (d.kind == Diagnostic::Kind::error) errors.push_back(place_of(d));
    print_json(errors, kExitUserError);
  }
  return kExitUserError;
}

int report_failure(const std::string& text, const std::string& message, int status, bool json) {
  std::cerr << text;
  if (json) {
    Diagnostic d;
    d.message = message;
    print_json(Json::array({place_of(d)}), status);
  }
  return status;
}

}  // namespace permjit
