#include "scenario.hpp"

#include <capplan/error.hpp>
#include <capplan/io/json_document.hpp>

#include <charconv>
#include <set>
#include <string>
#include <system_error>
#include <vector>

namespace capplan::cli {

namespace {

using io::Json;
using io::JsonDocument;

// A scenario is a few flags: 1 MiB is far more than any needs.
constexpr std::size_t max_scenario_bytes = 1u << 20;

[[noreturn]] void fail(const JsonDocument& doc, const std::string& pointer, const std::string& key, const std::string& problem) {
  throw InputError("--scenario", doc.file(), "--scenario: " + doc.where(pointer) + ": " + key + ": " + problem);
}

// A flag's value as the user wrote it: strings as they are, numbers in their shortest exact form
// (2.14, not 2.1400000000000001), so money and counts parse as typed.
std::string value_text(const JsonDocument& doc, const std::string& pointer, const std::string& key, const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return v.dump();
  if (v.is_number_float()) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v.get<double>());
    return std::string(buf, r.ptr);
  }
  fail(doc, pointer, key, "must be a string, a number, true or false (got " + std::string(v.type_name()) + ")");
}

}  // namespace

std::vector<std::string> expand_scenario(int argc, char** argv) {
  std::vector<std::string> in(argv, argv + argc);
  std::string file;
  for (std::size_t i = 1; i + 1 < in.size(); ++i) {
    if (in[i] == "--scenario") file = in[i + 1];
  }
  for (std::size_t i = 1; i < in.size(); ++i) {
    if (in[i].rfind("--scenario=", 0) == 0) file = in[i].substr(11);
  }
  if (file.empty()) return in;
  JsonDocument doc = [&] {
    try {
      return JsonDocument::load(file, max_scenario_bytes);
    } catch (const InputError& e) {
      throw InputError("--scenario", file, std::string("--scenario: ") + e.what());
    }
  }();
  const Json& j = doc.root();
  if (!j.is_object()) fail(doc, "", "(top level)", "must be an object");
  for (const auto& [k, v] : j.items()) {
    if (k != "capplan_scenario" && k != "command" && k != "model" && k != "args" && k != "description") {
      fail(doc, "/" + detail::pointer_token(k), k, "is not a scenario key (capplan_scenario, description, command, model, args)");
    }
  }
  if (!j.contains("capplan_scenario") || j["capplan_scenario"] != 1) fail(doc, "/capplan_scenario", "capplan_scenario", "must be 1 (the format version)");
  std::vector<std::string> command;
  if (!j.contains("command")) fail(doc, "", "command", "is missing (e.g. \"compare\")");
  const Json& c = j["command"];
  if (c.is_string()) {
    command.push_back(c.get<std::string>());
  } else if (c.is_array()) {
    for (const auto& e : c) {
      if (!e.is_string()) fail(doc, "/command", "command", "must be a string or an array of strings");
      command.push_back(e.get<std::string>());
    }
  } else {
    fail(doc, "/command", "command", "must be a string or an array of strings");
  }
  if (command.empty() || command.front().empty()) fail(doc, "/command", "command", "names no subcommand (e.g. \"compare\" or [\"catalog\", \"list\"])");

  // Flags already on the command line.
  std::set<std::string> given;
  for (std::size_t i = 1; i < in.size(); ++i) {
    if (in[i].rfind("--", 0) == 0) given.insert(in[i].substr(0, in[i].find('=')));
  }
  std::vector<std::string> out{in[0]};
  // The subcommand(s) first, unless the command line names them.
  bool has_command = false;
  for (std::size_t i = 1; i < in.size(); ++i) has_command = has_command || in[i] == command.front();
  if (!has_command) out.insert(out.end(), command.begin(), command.end());
  if (j.contains("model") && !given.count("--model")) {
    const auto& m = j["model"];
    if (m.is_string()) {
      out.push_back("--model");
      out.push_back(m.get<std::string>());
    } else if (m.is_object()) {
      // Read in place by --model FILE#/model (workload_args.hpp): no temporary file, and errors
      // name the scenario file, line and column.
      out.push_back("--model");
      out.push_back(file + "#/model");
    } else {
      fail(doc, "/model", "model", "must be a preset id, a file name or a model object");
    }
  }
  if (j.contains("args")) {
    if (!j["args"].is_object()) fail(doc, "/args", "args", "must be an object of flags");
    for (const auto& [k, v] : j["args"].items()) {
      const std::string flag = "--" + k;
      const std::string key = "args." + k;
      const std::string pointer = "/args/" + detail::pointer_token(k);
      if (k == "scenario") fail(doc, pointer, key, "a scenario cannot name another scenario");
      if (k.empty() || k.front() == '-' || k.find('=') != std::string::npos) {
        fail(doc, pointer, key, "is not a flag name (write the flag without its dashes, e.g. \"gpus\")");
      }
      if (given.count(flag)) continue;
      if (v.is_boolean()) {
        if (v.get<bool>()) out.push_back(flag);
      } else if (v.is_array()) {
        for (const auto& e : v) {
          out.push_back(flag);
          out.push_back(value_text(doc, pointer, key, e));
        }
      } else {
        out.push_back(flag);
        out.push_back(value_text(doc, pointer, key, v));
      }
    }
  }
  for (std::size_t i = 1; i < in.size(); ++i) out.push_back(in[i]);
  return out;
}

}  // namespace capplan::cli
