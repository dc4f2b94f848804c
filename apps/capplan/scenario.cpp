#include "scenario.hpp"

#include <capplan/error.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace capplan::cli {

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& key, const std::string& problem) {
  throw InputError("--scenario", file, "--scenario: " + file + ": " + key + ": " + problem);
}

std::string value_text(const std::string& file, const std::string& key, const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) {
    std::ostringstream os;
    os.precision(17);
    os << v.get<double>();
    return os.str();
  }
  fail(file, key, "must be a string, a number, true or false (got " + std::string(v.type_name()) + ")");
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
  std::ifstream f(file, std::ios::binary);
  if (!f) throw InputError("--scenario", file, "--scenario: \"" + file + "\" cannot be read");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    const auto at = what.find("parse error");
    throw InputError("--scenario", file, "--scenario: " + file + ": not JSON: " + (at == std::string::npos ? what : what.substr(at)));
  }
  if (!j.is_object()) fail(file, "(top level)", "must be an object");
  for (const auto& [k, v] : j.items()) {
    if (k != "capplan_scenario" && k != "command" && k != "model" && k != "args" && k != "description") {
      fail(file, k, "is not a scenario key (capplan_scenario, description, command, model, args)");
    }
  }
  if (!j.contains("capplan_scenario") || j["capplan_scenario"] != 1) fail(file, "capplan_scenario", "must be 1 (the format version)");
  std::vector<std::string> command;
  if (!j.contains("command")) fail(file, "command", "is missing (e.g. \"compare\")");
  if (j["command"].is_string()) command.push_back(j["command"].get<std::string>());
  else if (j["command"].is_array()) {
    for (const auto& c : j["command"]) {
      if (!c.is_string()) fail(file, "command", "must be a string or an array of strings");
      command.push_back(c.get<std::string>());
    }
  } else {
    fail(file, "command", "must be a string or an array of strings");
  }

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
      // Named by its content, so runs print the same text and concurrent runs write the same bytes.
      const std::string text = m.dump(2);
      const auto path = std::filesystem::temp_directory_path() /
                        ("capplan-scenario-model-" + std::to_string(std::hash<std::string>{}(text)) + ".json");
      std::ofstream o(path, std::ios::binary);
      o << text;
      out.push_back("--model");
      out.push_back(path.string());
    } else {
      fail(file, "model", "must be a preset id, a file name or a model object");
    }
  }
  if (j.contains("args")) {
    if (!j["args"].is_object()) fail(file, "args", "must be an object of flags");
    for (const auto& [k, v] : j["args"].items()) {
      const std::string flag = "--" + k;
      if (given.count(flag)) continue;
      const std::string key = "args." + k;
      if (v.is_boolean()) {
        if (v.get<bool>()) out.push_back(flag);
      } else if (v.is_array()) {
        for (const auto& e : v) {
          out.push_back(flag);
          out.push_back(value_text(file, key, e));
        }
      } else {
        out.push_back(flag);
        out.push_back(value_text(file, key, v));
      }
    }
  }
  for (std::size_t i = 1; i < in.size(); ++i) out.push_back(in[i]);
  return out;
}

}  // namespace capplan::cli
