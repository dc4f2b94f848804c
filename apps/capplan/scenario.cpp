#include "scenario.hpp"

#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"

#include <capplan/error.hpp>
#include <capplan/io/json_document.hpp>
#include <capplan/perf/efficiency.hpp>
#include <capplan/perf/explain.hpp>
#include <capplan/perf/framework.hpp>
#include <capplan/perf/inference.hpp>
#include <capplan/workload/pipeline_layout.hpp>
#include <capplan/report/table.hpp>
#include <capplan/units/format.hpp>
#include <capplan/units/parse.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace capplan::cli {

namespace {

using io::Json;
using io::JsonDocument;

// A scenario is a few flags: 1 MiB is far more than any needs.
constexpr std::size_t max_scenario_bytes = 1u << 20;

// `who`: the reader that fails, "--scenario" or "validate" (the first words of its messages).
[[noreturn]] void fail(const char* who, const JsonDocument& doc, const std::string& pointer, const std::string& key, const std::string& problem) {
  throw InputError(who, doc.file(), std::string(who) + ": " + doc.where(pointer) + ": " + key + ": " + problem);
}

// A flag's value as the user wrote it: strings as they are, numbers in their shortest exact form
// (2.14, not 2.1400000000000001), so money and counts parse as typed.
std::string value_text(const char* who, const JsonDocument& doc, const std::string& pointer, const std::string& key, const Json& v) {
  if (v.is_string()) {
    if (v.get_ref<const std::string&>().empty()) fail(who, doc, pointer, key, "\"\" is empty; give a value or leave the key out");
    return v.get<std::string>();
  }
  if (v.is_number_integer()) return v.dump();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    char buf[64];
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    return std::string(buf, r.ptr);
#else
    // A standard library without floating-point to_chars (Emscripten's, for web/): the fewest
    // significant digits that read back as the same double, as to_chars gives.
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*g", digits, d);
      if (std::strtod(buf, nullptr) == d) break;
    }
    return std::string(buf);
#endif
  }
  fail(who, doc, pointer, key, "must be a string, a number, true or false (got " + std::string(v.type_name()) + ")");
}

// The flags of an "args" object (at `pointer`), appended to `out` as command-line words; flags in
// `given` (already on the command line) are left out.
void append_flags(const char* who, const JsonDocument& doc, const Json& args, const std::string& at, const std::set<std::string>& given,
                  std::vector<std::string>& out) {
  const std::string key_prefix = at.substr(at.rfind('/') + 1);
  if (!args.is_object()) fail(who, doc, at, key_prefix, "must be an object of flags");
  for (const auto& [k, v] : args.items()) {
    const std::string flag = "--" + k;
    const std::string key = key_prefix + "." + k;
    const std::string pointer = at + "/" + detail::pointer_token(k);
    if (k == "scenario") fail(who, doc, pointer, key, "a scenario cannot name another scenario");
    if (k.empty() || k.front() == '-' || k.find('=') != std::string::npos) {
      fail(who, doc, pointer, key, "is not a flag name (write the flag without its dashes, e.g. \"gpus\")");
    }
    if (given.count(flag)) continue;
    if (v.is_boolean()) {
      // As --flag=true or --flag=false, which parse_command_line (cli.cpp) reads as the switch given,
      // left out, or its --no- spelling for a switch on by default; a flag that takes a value refuses
      // the word by name rather than swallowing the next one.
      out.push_back(flag + (v.get<bool>() ? "=true" : "=false"));
    } else if (v.is_array()) {
      for (const auto& e : v) {
        out.push_back(flag);
        out.push_back(value_text(who, doc, pointer, key, e));
      }
    } else {
      out.push_back(flag);
      out.push_back(value_text(who, doc, pointer, key, v));
    }
  }
}

}  // namespace

std::vector<std::string> expand_scenario(int argc, char** argv) {
  const char* who = "--scenario";
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
  if (!j.is_object()) fail(who, doc, "", "(top level)", "must be an object");
  for (const auto& [k, v] : j.items()) {
    if (k != "capplan_scenario" && k != "command" && k != "model" && k != "args" && k != "description") {
      fail(who, doc, "/" + detail::pointer_token(k), k, "is not a scenario key (capplan_scenario, description, command, model, args)");
    }
  }
  if (!j.contains("capplan_scenario") || j["capplan_scenario"] != 1) fail(who, doc, "/capplan_scenario", "capplan_scenario", "must be 1 (the format version)");
  std::vector<std::string> command;
  if (!j.contains("command")) fail(who, doc, "", "command", "is missing (e.g. \"compare\")");
  const Json& c = j["command"];
  if (c.is_string()) {
    command.push_back(c.get<std::string>());
  } else if (c.is_array()) {
    for (const auto& e : c) {
      if (!e.is_string()) fail(who, doc, "/command", "command", "must be a string or an array of strings");
      command.push_back(e.get<std::string>());
    }
  } else {
    fail(who, doc, "/command", "command", "must be a string or an array of strings");
  }
  if (command.empty() || command.front().empty()) fail(who, doc, "/command", "command", "names no subcommand (e.g. \"compare\" or [\"catalog\", \"list\"])");

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
      if (m.get_ref<const std::string&>().empty()) fail(who, doc, "/model", "model", "\"\" is empty; give a preset id, a file name or a model object");
      out.push_back("--model");
      out.push_back(m.get<std::string>());
    } else if (m.is_object()) {
      // Read in place by --model FILE#/model (workload_args.hpp): no temporary file, and errors
      // name the scenario file, line and column.
      out.push_back("--model");
      out.push_back(file + "#/model");
    } else {
      fail(who, doc, "/model", "model", "must be a preset id, a file name or a model object");
    }
  }
  if (j.contains("args")) append_flags(who, doc, j["args"], "/args", given, out);
  for (std::size_t i = 1; i < in.size(); ++i) out.push_back(in[i]);
  return out;
}

}  // namespace capplan::cli

// ---------------------------------------------------------------------------------------------
// capplan validate: runs whose throughput, time or latency was measured, each entered as the
// command a user would type, predicted by that command and compared with the measurement.

namespace capplan::cli {

namespace {

// A validation file is data about published runs: 4 MiB and 2,000 cases are far more than any needs.
constexpr std::size_t max_validation_bytes = 4u << 20;
constexpr std::size_t max_validation_cases = 2000;

// A figure a command's JSON result gives (docs/cli.md, "capplan validate"): the key, the command
// that writes it, its unit and how it is read from the result.
struct Metric {
  const char* name;
  const char* command;
  const char* unit;
  const char* field;  // the result's key
  double scale;       // figure = field x scale, or scale / field when `inverse`
  bool inverse = false;
};
constexpr Metric metrics[] = {
    {"tokens_per_s_per_gpu", "train", "tokens/s per GPU", "tokens_per_s_per_gpu", 1},
    {"tflops_per_gpu", "train", "model TFLOP/s per GPU", "achieved_flop_per_s_per_gpu", 1e-12},
    {"mfu_percent", "train", "MFU %", "mfu", 100},
    {"iteration_time_s", "train", "s per iteration", "iteration_time_s", 1},
    {"train_days", "train", "days", "time_s", 1.0 / 86400},
    {"memory_per_gpu_gb", "train", "GB per GPU (peak)", "memory_per_gpu_bytes", 1e-9},
    {"train_images_per_s", "train", "images/s, GPU-bound (all GPUs)", "gpu_bound_images_per_s", 1},
    {"ttft_ms", "infer", "ms to first token", "ttft_s", 1000},
    {"decode_tokens_per_s", "infer", "output tokens/s, all sequences", "decode_tokens_per_s", 1},
    {"decode_tokens_per_s_per_sequence", "infer", "output tokens/s per sequence", "decode_tokens_per_s_per_sequence", 1},
    {"itl_ms", "infer", "ms between output tokens", "decode_tokens_per_s_per_sequence", 1000, true},
    {"output_tokens_per_s_per_gpu", "infer", "output tokens/s per GPU, whole requests", "output_tokens_per_s_per_gpu", 1},
    {"request_time_s", "infer", "s per request", "time_s", 1},
    {"forward_pass_ms", "infer", "ms per forward pass (an encoder's batch)", "forward_pass_s", 1000},
    {"infer_images_per_s", "infer", "images/s", "images_per_s", 1},
};

std::string metric_names() {
  std::string out;
  for (const Metric& m : metrics) out += (out.empty() ? "" : ", ") + std::string(m.name);
  return out;
}

struct Case {
  std::string source, name, set, metric, unit, note;
  const Metric* figure = nullptr;  // how the metric is read from the command's result
  std::vector<std::string> command;
  double published = 0, band = 0;
  double predicted = std::nan("");
  bool predicted_fits = true;  // capplan says the case's own plan fits in memory
  std::string failure;  // why the command gave no figure
  // --leave-one-source-out: the figure with the constants fitted on this case's source at their priors
  // (the same as `predicted` where the source fitted none that touch this case).
  double left_out = std::nan("");
  std::string left_out_failure;
  std::vector<std::string> priors;  // "--launch-time 0 us", what was set for left_out
  [[nodiscard]] double error() const { return predicted / published - 1.0; }
  [[nodiscard]] double left_out_error() const { return left_out / published - 1.0; }
  [[nodiscard]] bool within() const { return failure.empty() && std::isfinite(predicted) && std::fabs(error()) <= band; }
};

// A constant fitted on a source's calibration rows ("fitted" in the file), and the flag that sets it:
// `capplan validate --leave-one-source-out` predicts the source's rows with the constant at its prior
// (what capplan would use with this source left out: no other source's rows fit it).
struct Fitted {
  std::string constant, flag, command, value, prior, fitted_on;  // command: the subcommand whose flag it is
  std::vector<std::string> metrics;                         // the rows it changes, by metric
  std::vector<std::pair<std::string, std::string>> when;  // and by the case's flags ("framework": "eager")
};

// Whether a fitted constant changes case `c`: its metric is listed and the case's flags match `when`.
// A "when" value of "true" matches a switch given alone or as --flag=true ("eager": true in the case's
// args is "--eager=true").
bool touches(const Fitted& f, const Case& c) {
  if (c.command.empty() || c.command.front() != f.command) return false;
  if (std::find(f.metrics.begin(), f.metrics.end(), c.metric) == f.metrics.end()) return false;
  for (const auto& [flag, value] : f.when) {
    bool found = false;
    for (std::size_t i = 0; i < c.command.size(); ++i) {
      if (c.command[i] == flag + "=" + value) found = true;
      if (c.command[i] != flag) continue;
      const bool has_value = i + 1 < c.command.size() && c.command[i + 1].rfind("--", 0) != 0;
      if (has_value ? c.command[i + 1] == value : value == "true") found = true;
    }
    if (!found) return false;
  }
  return true;
}

// The constants a validation file may declare: the flag that sets each, the command that takes the
// flag, the metrics the constant can change (the others never move: memory, image models, the prefill
// that first-token latency times) and the value capplan has fitted.
struct FittableFlag {
  const char* flag;
  const char* command;
  std::initializer_list<const char*> metrics;
  double (*fitted)();  // seconds
  const char* requires_switch = nullptr;  // a switch the command takes the flag only with (infer's --launch-time: --eager)
};
const FittableFlag fittable_flags[] = {
    {"launch-time", "train", {"tokens_per_s_per_gpu", "tflops_per_gpu", "mfu_percent", "iteration_time_s", "train_days"},
     [] { return perf::pytorch_eager().cpu_seconds_per_kernel; }},
    {"launch-time", "infer",
     {"ttft_ms", "decode_tokens_per_s", "decode_tokens_per_s_per_sequence", "itl_ms", "output_tokens_per_s_per_gpu", "request_time_s",
      "forward_pass_ms"},
     [] { return perf::eager_inference_host_seconds_per_kernel; }, "eager"},
    {"weight-stream-latency", "infer",
     {"decode_tokens_per_s", "decode_tokens_per_s_per_sequence", "itl_ms", "output_tokens_per_s_per_gpu", "request_time_s"},
     [] { return perf::EfficiencyModel{}.weight_stream_latency.value(); }},
    {"moe-routed-time", "train", {"tokens_per_s_per_gpu", "tflops_per_gpu", "mfu_percent", "iteration_time_s", "train_days"},
     [] { return perf::megatron_core().moe_seconds_per_routed_value; }},
};

struct Source {
  std::string file, title, citation, url;
  std::vector<Case> cases;
  std::vector<Fitted> fitted;
  bool tuned = false;  // the authors tuned the published plans for speed (--search-realism compares capplan's own)
};

// A positive, finite number at `key` of case `r`.
double positive_number(io::ObjectReader& r, std::string_view key, double max) {
  const Json* v = r.find(key);
  if (!v) r.missing(key, "a number");
  if (!v->is_number()) r.fail(key, detail::value_text(*v), "must be a number");
  const double x = v->get<double>();
  if (!std::isfinite(x) || x <= 0 || x > max) r.fail(key, v->dump(), "must be a positive number no greater than " + format_number(max, 6));
  return x;
}

// The strings of an array at `key` (at most 64, none empty).
std::vector<std::string> string_list(io::ObjectReader& r, std::string_view key) {
  const Json* v = r.find(key);
  if (!v) r.missing(key, "an array of strings");
  if (!v->is_array() || v->empty() || v->size() > 64) r.fail(key, detail::value_text(*v), "must be a non-empty array of at most 64 strings");
  std::vector<std::string> out;
  for (const Json& x : *v) {
    if (!x.is_string() || x.get<std::string>().empty()) r.fail(key, detail::value_text(x), "must hold non-empty strings");
    out.push_back(x.get<std::string>());
  }
  return out;
}

// A time of 0 to 1 ms with its unit ("0 us"), or NaN.
double short_time(const std::string& text) {
  try {
    const double t = parse<Duration>(text, "time").value();
    return t >= 0 && t <= 1e-3 ? t : std::nan("");
  } catch (const InputError&) {
    return std::nan("");
  }
}

Fitted read_fitted(const JsonDocument& doc, const Json& j, std::size_t i) {
  io::ObjectReader r(doc, j, "/fitted/" + std::to_string(i), "fitted[" + std::to_string(i) + "]");
  Fitted f;
  f.constant = r.string("constant");
  f.flag = r.string("flag");
  // "command" picks among the subcommands that take the flag (launch-time: train, and infer with --eager);
  // absent, the first that takes it.
  const std::optional<std::string> command = r.string_opt("command");
  const FittableFlag* known = nullptr;
  bool flag_known = false;
  for (const FittableFlag& x : fittable_flags) {
    if (f.flag != x.flag) continue;
    flag_known = true;
    if (!known && (!command || *command == x.command)) known = &x;
  }
  if (!flag_known) r.fail("flag", "\"" + f.flag + "\"", "is not a flag that sets a fitted constant (launch-time, weight-stream-latency, moe-routed-time)");
  if (!known) r.fail("command", "\"" + *command + "\"", "does not take --" + f.flag + " as a fitted constant");
  f.command = known->command;
  // A flag the command takes only with a switch touches the rows that have it, whatever "when" says.
  if (known->requires_switch) f.when.emplace_back(std::string("--") + known->requires_switch, "true");
  // The value is capplan's own: a file cannot claim a constant capplan does not use.
  f.value = r.string("value");
  const double fitted = known->fitted(), value = short_time(f.value);
  if (!(std::fabs(value - fitted) <= 0.005 * fitted))
    r.fail("value", "\"" + f.value + "\"", "is not the value capplan fitted for --" + f.flag + " (" + perf::seconds_text(fitted) + ")");
  f.prior = r.string("prior");
  if (!std::isfinite(short_time(f.prior))) r.fail("prior", "\"" + f.prior + "\"", "must be a time of 0 to 1 ms with its unit (\"0 us\")");
  f.fitted_on = r.string("fitted_on");
  f.metrics = string_list(r, "metrics");
  for (const std::string& name : f.metrics) {
    if (std::find_if(known->metrics.begin(), known->metrics.end(), [&](const char* m) { return name == m; }) == known->metrics.end()) {
      std::string allowed;
      for (const char* m : known->metrics) allowed += (allowed.empty() ? "" : ", ") + std::string(m);
      r.fail("metrics", "\"" + name + "\"", "is not a metric --" + f.flag + " changes (" + allowed + ")");
    }
  }
  if (const Json* when = r.find("when")) {
    if (!when->is_object() || when->size() > 16) r.fail("when", detail::value_text(*when), "must be an object of at most 16 flags and their values");
    for (const auto& [k, v] : when->items()) {
      // As the keys of a case's "args": a flag's name without its dashes, with a string value.
      if (k.empty() || k.front() == '-' || k.find('=') != std::string::npos)
        r.fail("when", "\"" + k + "\"", "must name a flag without its dashes (\"framework\")");
      if (!v.is_string()) r.fail("when", k + ": " + detail::value_text(v), "must be a string value (\"framework\": \"eager\")");
      f.when.emplace_back("--" + k, v.get<std::string>());
    }
  }
  r.finish();
  return f;
}

Source read_source(const std::string& path) {
  const char* who = "validate";
  JsonDocument doc = [&] {
    try {
      return JsonDocument::load(path, max_validation_bytes);
    } catch (const InputError& e) {
      throw InputError("validate", path, std::string("validate: ") + e.what());
    }
  }();
  Source src;
  src.file = path;
  try {
    io::ObjectReader top(doc, doc.root(), "", "file");
    const Json* version = top.find("capplan_validation");
    if (!version || *version != 1) top.fail("capplan_validation", version ? version->dump() : "", "must be 1 (the format version)");
    src.title = top.string("source");
    src.citation = top.string("citation");
    src.url = top.string_opt("url").value_or("");
    top.allow("description");
    src.tuned = top.boolean_or("tuned", false);
    if (const Json* fitted = top.find("fitted")) {
      if (!fitted->is_array() || fitted->size() > 16) top.fail("fitted", detail::value_text(*fitted), "must be an array of at most 16 fitted constants");
      for (std::size_t i = 0; i < fitted->size(); ++i) src.fitted.push_back(read_fitted(doc, (*fitted)[i], i));
    }
    const Json* cases = top.find("cases");
    if (!cases || !cases->is_array() || cases->empty()) top.fail("cases", cases ? detail::value_text(*cases) : "", "must be a non-empty array of cases");
    if (cases->size() > max_validation_cases) top.fail("cases", std::to_string(cases->size()) + " cases", "has more than 2,000 cases");
    top.finish();
    for (std::size_t i = 0; i < cases->size(); ++i) {
      const std::string at = "/cases/" + std::to_string(i);
      io::ObjectReader r(doc, (*cases)[i], at, "cases[" + std::to_string(i) + "]");
      Case c;
      c.source = src.title;
      c.name = r.string("name");
      r.set_entry("case \"" + c.name + "\"");
      c.set = r.string("set");
      if (c.set != "calibration" && c.set != "validation") {
        r.fail("set", "\"" + c.set + "\"", "must be \"calibration\" (a constant was fitted to it) or \"validation\" (nothing was)");
      }
      const std::string command = r.string("command");
      c.metric = r.string("metric");
      const Metric* m = nullptr;
      for (const Metric& x : metrics) {
        if (c.metric == x.name) m = &x;
      }
      if (!m) r.fail("metric", "\"" + c.metric + "\"", "is not a metric (" + metric_names() + ")");
      if (command != m->command) r.fail("command", "\"" + command + "\"", "does not give " + c.metric + ", which capplan " + m->command + " gives");
      c.unit = m->unit;
      c.figure = m;
      c.published = positive_number(r, "published", 1e30);
      c.band = positive_number(r, "band", 10);
      c.note = r.string_opt("note").value_or("");
      c.command.push_back(command);
      if (const Json* model = r.find("model")) {
        c.command.push_back("--model");
        if (model->is_string()) c.command.push_back(model->get<std::string>());
        else if (model->is_object()) c.command.push_back(path + "#" + at + "/model");  // read in place (workload_args.cpp)
        else r.fail("model", detail::value_text(*model), "must be a preset id, a file name or a model object");
      }
      if (const Json* args = r.find("args")) {
        std::vector<std::string> flags;
        append_flags(who, doc, *args, at + "/args", {}, flags);
        for (const std::string& f : flags) {
          if (f == "--format" || f == "--catalog") fail(who, doc, at + "/args", "args", f + " is set by capplan validate, not by a case");
        }
        c.command.insert(c.command.end(), flags.begin(), flags.end());
      }
      r.finish();
      src.cases.push_back(std::move(c));
    }
    // Each fitted constant once, and each touching a case of its own file.
    for (std::size_t i = 0; i < src.fitted.size(); ++i) {
      const Fitted& f = src.fitted[i];
      io::ObjectReader r(doc, (*top.find("fitted"))[i], "/fitted/" + std::to_string(i), "fitted[" + std::to_string(i) + "]");
      for (std::size_t k = 0; k < i; ++k) {
        if (src.fitted[k].flag == f.flag && src.fitted[k].command == f.command)
          r.fail("flag", "\"" + f.flag + "\"", "is listed twice for " + f.command + " (fitted[" + std::to_string(k) + "] too)");
      }
      if (std::none_of(src.cases.begin(), src.cases.end(), [&](const Case& c) { return touches(f, c); }))
        r.fail_entry("changes no case of this file (its metrics and \"when\" match none)");
    }
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind("validate: ", 0) == 0) throw;
    throw InputError("validate", path, "validate: " + what);
  }
  return src;
}

// The files named: a directory stands for its *.json files in name order.
std::vector<std::string> validation_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::string> in_dir;
      for (const auto& e : std::filesystem::directory_iterator(p, ec)) {
        if (e.path().extension() == ".json" && e.is_regular_file(ec)) in_dir.push_back(e.path().string());
      }
      if (ec) throw InputError("validate", p, "validate: " + p + ": cannot list the directory (" + ec.message() + ")");
      if (in_dir.empty()) throw InputError("validate", p, "validate: " + p + ": holds no .json file");
      std::sort(in_dir.begin(), in_dir.end());
      out.insert(out.end(), in_dir.begin(), in_dir.end());
    } else {
      out.push_back(p);
    }
  }
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string signed_percent(double e) { return (e >= 0 ? "+" : "") + format_number(100 * e, 3, false) + " %"; }
std::string percent(double e) { return format_number(100 * e, 3, false) + " %"; }

// |error| statistics of a group of cases: how many, how many could not be predicted, and the median
// and largest |error| and the mean signed error of the others.
struct ErrorStats {
  std::size_t cases = 0, failed = 0;
  double median_abs = 0, max_abs = 0, mean_signed = 0;
};

ErrorStats stats_of(std::size_t cases, std::size_t failed, const std::vector<double>& errors) {
  ErrorStats s{cases, failed, 0, 0, 0};
  if (errors.empty()) return s;
  std::vector<double> abs;
  double sum = 0;
  for (const double e : errors) {
    abs.push_back(std::fabs(e));
    sum += e;
  }
  s.median_abs = median(abs);
  s.max_abs = *std::max_element(abs.begin(), abs.end());
  s.mean_signed = sum / static_cast<double>(errors.size());
  return s;
}

// One summary row: a source (or "all") and a set.
struct Summary : ErrorStats {
  std::string source, set;
  std::size_t within = 0;
};

Summary summarize(const std::string& source, const std::string& set, const std::vector<const Case*>& cases) {
  std::vector<double> errors;
  std::size_t within = 0;
  for (const Case* c : cases) {
    if (c->within()) ++within;
    if (c->failure.empty() && std::isfinite(c->predicted)) errors.push_back(c->error());
  }
  Summary s;
  static_cast<ErrorStats&>(s) = stats_of(cases.size(), cases.size() - errors.size(), errors);
  s.source = source;
  s.set = set;
  s.within = within;
  return s;
}

// Over the cases predicted both ways (as fitted and left out), so the two medians count the same rows.
ErrorStats error_stats(const std::vector<const Case*>& cases, bool left_out) {
  std::vector<double> errors;
  for (const Case* c : cases) {
    const bool both = c->failure.empty() && std::isfinite(c->predicted) && c->left_out_failure.empty() && std::isfinite(c->left_out);
    if (both) errors.push_back(left_out ? c->left_out_error() : c->error());
  }
  return stats_of(cases.size(), cases.size() - errors.size(), errors);
}

nlohmann::ordered_json stats_json(const ErrorStats& s) {
  const bool any = s.cases > s.failed;
  const auto num = [&](double v) { return any ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr); };
  return {{"cases", s.cases}, {"failed", s.failed}, {"median_abs_error", num(s.median_abs)}, {"max_abs_error", num(s.max_abs)},
          {"mean_signed_error", num(s.mean_signed)}};
}

// The leave-one-source-out table: each source's (file's) rows, calibration and validation together,
// predicted as fitted and with the constants fitted on that source at their priors; then every row so.
nlohmann::ordered_json leave_one_source_out_table(const std::vector<Source>& sources, const std::vector<const Case*>& all, Result& r) {
  Table t;
  t.title = "Leave one source out: each source's rows predicted without the constants fitted on it";
  t.columns = {{"source", "source", Align::left},
               {"constants", "constants at their prior", Align::left},
               {"cases", "cases"},
               {"median_abs_error", "median |error| as fitted"},
               {"left_out_median_abs_error", "median |error| left out"},
               {"left_out_max_abs_error", "max |error| left out"},
               {"left_out_mean_signed_error", "mean signed left out"}};
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const auto add = [&](const std::string& name, const std::string& constants, const std::vector<const Case*>& cases, const Source* src) {
    const ErrorStats fitted = error_stats(cases, false), left = error_stats(cases, true);
    const auto pct = [&](double v, bool is_signed) {
      return left.cases > left.failed ? Cell::of_number(is_signed ? signed_percent(v) : percent(v), v) : Cell::empty();
    };
    const std::string n = std::to_string(cases.size() - left.failed) + (left.failed ? " of " + std::to_string(cases.size()) : "");
    t.add_row({Cell::of_text(name), Cell::of_text(constants), Cell::of_number(n, static_cast<double>(cases.size() - left.failed)),
               pct(fitted.median_abs, false), pct(left.median_abs, false), pct(left.max_abs, false), pct(left.mean_signed, true)});
    nlohmann::ordered_json j;
    j["source"] = name;
    if (src) {
      j["file"] = src->file;
      nlohmann::ordered_json fits = nlohmann::ordered_json::array();
      for (const Fitted& f : src->fitted) {
        nlohmann::ordered_json w = nlohmann::ordered_json::object();
        for (const auto& [flag, value] : f.when) w[flag.substr(2)] = value;
        fits.push_back({{"constant", f.constant}, {"flag", f.flag}, {"command", f.command}, {"value", f.value}, {"prior", f.prior}, {"fitted_on", f.fitted_on},
                        {"metrics", f.metrics}, {"when", std::move(w)}});
      }
      j["fitted"] = std::move(fits);
    }
    j["as_fitted"] = stats_json(fitted);
    j["left_out"] = stats_json(left);
    out.push_back(std::move(j));
  };
  const std::set<const Case*> ran(all.begin(), all.end());
  std::vector<std::string> failures;
  for (const Source& src : sources) {
    std::vector<const Case*> mine;
    for (const Case& c : src.cases) {
      if (!ran.count(&c)) continue;
      mine.push_back(&c);
      if (!c.left_out_failure.empty() && c.failure.empty()) failures.push_back(c.name + " (" + src.file + "), left out: " + c.left_out_failure);
    }
    if (mine.empty()) continue;
    std::string constants;
    for (const Fitted& f : src.fitted) constants += (constants.empty() ? "" : "; ") + f.constant + " " + f.value + " -> " + f.prior;
    add(src.title, constants.empty() ? "none fitted" : constants, mine, &src);
  }
  add("all sources", "each source's own", all, nullptr);
  // A constant two sources fitted would be refitted on the other with one left out; capplan sets its prior.
  for (std::size_t i = 0; i < sources.size(); ++i)
    for (const Fitted& f : sources[i].fitted)
      for (std::size_t k = i + 1; k < sources.size(); ++k)
        for (const Fitted& g : sources[k].fitted)
          if (f.flag == g.flag && f.command == g.command)
            t.notes.push_back(f.command + " --" + f.flag + " is fitted on two sources (" + sources[i].file + ", " + sources[k].file +
                              "): with one left out, a refit would use the other's rows; here it takes its prior, so the left-out errors "
                              "overstate what leaving one out costs.");
  for (std::size_t i = 0; i < failures.size(); ++i) t.notes.push_back("(" + std::to_string(i + 1) + ") " + failures[i]);
  t.notes.push_back("A constant fitted on a source's calibration rows (the file's \"fitted\" list) is what refitting without that source "
                    "changes: no other source's rows fit it, so it returns to its prior, and the source's rows are predicted so. A "
                    "source that fitted nothing is predicted as above. Both medians count the rows predicted both ways (\"n of m\" "
                    "where a left-out run failed). The left-out errors estimate the error on a run like the source's that nobody has "
                    "measured for capplan.");
  r.tables.push_back(std::move(t));
  return out;
}

struct ValidateArgs {
  std::vector<std::string> paths;
  std::string set;
  bool check = false;
  bool leave_one_source_out = false;
  bool search_realism = false;
};

// The figure `c`'s command gives (predicted or left out), or why it gives none.
// `c`'s metric read from a command's JSON result, or why there is none.
double figure_from(const Case& c, const nlohmann::ordered_json& out, std::string& failure, bool* fits = nullptr) {
  const Metric* m = c.figure;
  const auto it = out.find(m->field);
  if (it == out.end() || !it->is_number()) {
    failure = std::string("the result has no number ") + m->field;
    return std::nan("");
  }
  const double v = it->get<double>();
  const double figure = m->inverse ? (v > 0 ? m->scale / v : std::nan("")) : v * m->scale;
  if (!std::isfinite(figure)) failure = std::string("the result's ") + m->field + " is not usable";
  if (fits) *fits = !(out.contains("fits") && out["fits"] == false);
  return figure;
}

double run_figure(const Case& c, const std::vector<std::string>& command, const Context& ctx, std::string& failure, bool* fits = nullptr) {
  try {
    return figure_from(c, run_for_json(command, ctx), failure, fits);
  } catch (const std::exception& e) {
    failure = e.what();
    return std::nan("");
  }
}

// Leave one source out: `c` predicted with every constant its source fitted, and which touches it, at
// its prior. A case that sets the flag itself keeps its own value.
void predict_left_out(const Source& src, Case& c, const Context& ctx) {
  std::vector<std::string> command = c.command;
  for (const Fitted& f : src.fitted) {
    if (!touches(f, c)) continue;
    const std::string flag = "--" + f.flag;
    if (std::find(command.begin(), command.end(), flag) != command.end()) continue;
    command.push_back(flag);
    command.push_back(f.prior);
    c.priors.push_back(flag + " " + f.prior);
  }
  if (c.priors.empty()) {
    c.left_out = c.predicted;
    c.left_out_failure = c.failure;
    return;
  }
  c.left_out = run_figure(c, command, ctx, c.left_out_failure);
}

// Search realism (fidelity issue, §2): for a source whose authors tuned their plans for speed, each
// training rate or time is predicted again with capplan choosing the plan itself (the plan's flags
// dropped: the same GPUs, model, global batch, sequence, precision and framework), and compared with
// the published figure. A search that beats tuned runs by much turns the model's optimism into
// headline numbers; the issue asks for no more than +10 %.
constexpr const char* plan_value_flags[] = {"--tp", "--pp", "--dp", "--cp", "--ep", "--etp", "--interleave", "--micro-batch", "--zero",
                                            "--recompute", "--recompute-modules", "--first-stage-layers", "--last-stage-layers", "--pipeline-layout", "--cp-comm",
                                            "--offload-layers"};
constexpr const char* realism_metrics[] = {"tokens_per_s_per_gpu", "tflops_per_gpu", "mfu_percent", "iteration_time_s", "train_days"};

std::vector<std::string> without_plan(const std::vector<std::string>& command) {
  std::vector<std::string> out;
  int mtp = 0;  // the MTP layers a dropped pipeline layout placed: the search trains them too
  bool mtp_given = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const std::string& w = command[i];
    if (w.substr(0, w.find('=')) == "--sequence-parallel") continue;  // "--sequence-parallel=true" from a case's args
    if (w == "--mtp-layers") mtp_given = true;
    if (w == "--pipeline-layout" && i + 1 < command.size()) {
      try {
        const std::string flat = detail::unroll_pipeline_layout(command[i + 1]);
        mtp = static_cast<int>(std::count(flat.begin(), flat.end(), 'm'));
      } catch (const InputError&) {
        // a bad layout fails the case's own run, which names it
      }
    }
    if (std::find(std::begin(plan_value_flags), std::end(plan_value_flags), w) != std::end(plan_value_flags)) {
      if (i + 1 < command.size() && command[i + 1].rfind("--", 0) != 0) ++i;  // and its value, if it has one
      continue;
    }
    out.push_back(w);
  }
  if (mtp > 0 && !mtp_given) {
    out.push_back("--mtp-layers");
    out.push_back(std::to_string(mtp));
  }
  return out;
}

// A searched plan's recomputation from its JSON as the plan text words it: "selective (moe_act,
// layernorm)" where the modules are not Megatron-Core's default core_attn (workload/parallel_plan.hpp
// recompute_text).
std::string recompute_words(const nlohmann::ordered_json& plan) {
  const std::string r = plan["recompute"].get<std::string>();
  const auto m = plan.find("recompute_modules");
  if (r != "selective" || m == plan.end() || !m->is_string() || m->get<std::string>().empty()) return r;
  ParallelPlan p;
  p.recompute = Recompute::selective;
  p.recompute_modules = parse_recompute_modules(m->get<std::string>());
  return p.recompute_modules == recompute_module::core_attn ? r : recompute_text(p);
}

nlohmann::ordered_json search_realism_table(const std::vector<Source>& sources, const ValidateArgs& a, const Context& ctx, Result& r) {
  Table t;
  t.title = "Search realism: capplan's own plan for the tuned runs (same GPUs, model, batch, precision)";
  t.columns = {{"case", "case", Align::left},
               {"published", "published"},
               {"predicted", "published plan, predicted"},
               {"searched", "capplan's plan, predicted"},
               {"plan", "capplan's plan", Align::left},
               {"gain", "rate over published"},
               {"result", "", Align::left}};
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  std::vector<double> gains;
  std::size_t beyond = 0, failed = 0, misses = 0, misses_beyond = 0;
  for (const Source& src : sources) {
    if (!src.tuned) continue;
    for (const Case& c : src.cases) {
      if (!a.set.empty() && c.set != a.set) continue;
      if (c.command.empty() || c.command.front() != "train") continue;
      if (std::find(std::begin(realism_metrics), std::end(realism_metrics), c.metric) == std::end(realism_metrics)) continue;
      std::string failure, plan;
      double searched = std::nan("");
      try {
        const nlohmann::ordered_json res = run_for_json(without_plan(c.command), ctx);
        if (const auto p = res.find("plan"); p != res.end() && p->is_null()) failure = "no plan fits in memory";
        else searched = figure_from(c, res, failure);
        if (const auto p = res.find("plan"); p != res.end() && p->is_object()) {
          const auto& j = *p;
          const auto num = [&](const char* k) { return j.contains(k) && j[k].is_number_integer() ? j[k].get<long long>() : 1LL; };
          plan = "TP " + std::to_string(num("tp")) + (num("cp") > 1 ? " CP " + std::to_string(num("cp")) : "") + " PP " + std::to_string(num("pp")) +
                 " DP " + std::to_string(num("dp")) + (num("ep") > 1 ? " EP " + std::to_string(num("ep")) : "") +
                 (num("interleave") > 1 ? " VP " + std::to_string(num("interleave")) : "") + ", MBS " + std::to_string(num("micro_batch")) +
                 ", ZeRO " + std::to_string(num("zero")) +
                 (j.contains("recompute") && j["recompute"].is_string() ? ", recompute " + recompute_words(j) : "") +
                 (j.contains("offload_layers") && j["offload_layers"].is_number_integer() && j["offload_layers"].get<long long>() > 0
                      ? ", offload " + std::to_string(j["offload_layers"].get<long long>())
                      : "");
        }
      } catch (const std::exception& e) {
        failure = e.what();
      }
      // Rates compare as they are; times inverted (a shorter iteration is a higher rate).
      const bool time = c.metric == "iteration_time_s" || c.metric == "train_days";
      const double gain = time ? c.published / searched - 1 : searched / c.published - 1;
      const bool ok = failure.empty() && std::isfinite(gain);
      if (ok) gains.push_back(gain);
      if (!ok) ++failed;
      const bool realistic = ok && gain <= 0.10;
      if (ok && !realistic) ++beyond;
      // The search missed the published plan where capplan rates that plan faster than its own choice
      // and says it fits (a plan outside its search space, or one it skips as a tight fit): no
      // evidence either way. A published plan capplan says does not fit is one no search could return.
      const double published_plan_gain = time ? c.published / c.predicted - 1 : c.predicted / c.published - 1;
      const bool missed = ok && c.predicted_fits && std::isfinite(published_plan_gain) && published_plan_gain > gain + 0.01;
      if (missed) ++(realistic ? misses : misses_beyond);
      t.add_row({Cell::of_text(c.name), Cell::of_number(format_number(c.published, 6), c.published),
                 std::isfinite(c.predicted) ? Cell::of_number(format_number(c.predicted, 4), c.predicted) : Cell::empty(),
                 ok ? Cell::of_number(format_number(searched, 4), searched) : Cell::empty(), Cell::of_text(ok ? plan : failure),
                 ok ? Cell::of_number(signed_percent(gain), gain) : Cell::empty(),
                 Cell::of_text(!ok ? "no plan" : realistic ? (missed ? "within; missed the published plan" : "within +10 %")
                                          : (missed ? "beyond +10 %; missed the published plan" : "beyond +10 %"))});
      nlohmann::ordered_json j;
      j["source"] = src.title;
      j["case"] = c.name;
      j["metric"] = c.metric;
      j["published"] = c.published;
      j["predicted"] = std::isfinite(c.predicted) ? nlohmann::ordered_json(c.predicted) : nlohmann::ordered_json(nullptr);
      j["searched"] = ok ? nlohmann::ordered_json(searched) : nlohmann::ordered_json(nullptr);
      j["searched_plan"] = ok ? nlohmann::ordered_json(plan) : nlohmann::ordered_json(nullptr);
      j["rate_gain"] = ok ? nlohmann::ordered_json(gain) : nlohmann::ordered_json(nullptr);
      j["within_10_percent"] = realistic;
      j["missed_published_plan"] = missed;
      j["failure"] = failure.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(failure);
      out.push_back(std::move(j));
    }
  }
  if (out.empty()) {
    std::string files;
    for (const Source& src : sources) files += (files.empty() ? "" : ", ") + src.file;
    detail::fail("--search-realism", files,
                 std::string("holds no training rate or time of a source marked \"tuned\": true (its authors tuned the plans)") +
                     (a.set.empty() ? "" : " in the " + a.set + " set"));
  }
  std::sort(gains.begin(), gains.end());
  const std::size_t n = out.size();
  t.notes.push_back(std::to_string(n - failed - beyond) + " of " + std::to_string(n) + " within +10 %" +
                    (misses ? " (" + std::to_string(misses) + " of them where the search missed the published plan, which capplan rates faster)" : std::string()) +
                    (beyond ? "; " + std::to_string(beyond) + " beyond +10 %" +
                                  (misses_beyond ? " (" + std::to_string(misses_beyond) + " of them where the search missed the published plan)" : std::string())
                            : std::string()) +
                    (gains.empty() ? std::string() : "; median " + signed_percent(median(gains)) + ", largest " + signed_percent(gains.back())) +
                    (failed ? "; " + std::to_string(failed) + " with no plan capplan can run" : "") + ".");
  std::string dropped;
  for (const char* f : plan_value_flags) dropped += std::string(dropped.empty() ? "" : ", ") + f;
  t.notes.push_back("rate over published = capplan's best plan's rate (times inverted) / the published rate - 1: how much faster than the tuned run "
                    "capplan says these GPUs can go. The search drops the plan's flags (" + dropped +
                    ", --sequence-parallel) and keeps the rest of the command.");
  r.tables.push_back(std::move(t));
  return out;
}

Result run_validate(const ValidateArgs& a, const Context& ctx) {
  if (!a.set.empty() && a.set != "calibration" && a.set != "validation") {
    detail::fail("--set", a.set, "must be calibration or validation");
  }
  std::vector<Source> sources;
  for (const std::string& f : validation_files(a.paths)) sources.push_back(read_source(f));
  Result r;
  nlohmann::ordered_json jcases = nlohmann::ordered_json::array();
  std::vector<const Case*> all;
  std::vector<Summary> summaries;
  for (Source& src : sources) {
    Table t;
    t.title = src.title;
    t.columns = {{"case", "case", Align::left},          {"set", "set", Align::left},           {"metric", "metric", Align::left},
                 {"predicted", "predicted"},             {"published", "published"},            {"error", "error"},
                 {"band", "band"},                       {"result", "", Align::left}};
    std::vector<const Case*> mine;
    struct RowNote {
      std::string text, first;
      int rows = 0;
    };
    std::vector<RowNote> row_notes;
    for (Case& c : src.cases) {
      if (!a.set.empty() && c.set != a.set) continue;
      bool fits = true;
      c.predicted = run_figure(c, c.command, ctx, c.failure, &fits);
      c.predicted_fits = fits;
      if (c.failure.empty() && !fits) c.note += std::string(c.note.empty() ? "" : "; ") + "capplan says this plan does not fit in memory";
      if (a.leave_one_source_out) predict_left_out(src, c, ctx);
      std::string result = !c.failure.empty() ? "error" : c.within() ? "within" : "outside";
      if (!c.failure.empty() || !c.note.empty()) {
        // A note several rows share is printed once, under the number of its first row.
        const std::string& text = c.failure.empty() ? c.note : c.failure;
        const auto same = std::find_if(row_notes.begin(), row_notes.end(), [&](const RowNote& n) { return n.text == text; });
        if (same != row_notes.end()) {
          ++same->rows;
          result += " (" + std::to_string(same - row_notes.begin() + 1) + ")";
        } else {
          row_notes.push_back({text, c.name, 1});
          result += " (" + std::to_string(row_notes.size()) + ")";
        }
      }
      const bool ok = c.failure.empty();
      t.add_row({Cell::of_text(c.name), Cell::of_text(c.set), Cell::of_text(c.unit),
                 ok ? Cell::of_number(format_number(c.predicted, 4), c.predicted) : Cell::empty(),
                 Cell::of_number(format_number(c.published, 6), c.published),
                 ok ? Cell::of_number(signed_percent(c.error()), c.error()) : Cell::empty(),
                 Cell::of_number("±" + percent(c.band), c.band), Cell::of_text(result)});
      nlohmann::ordered_json jc;
      jc["source"] = src.title;
      jc["file"] = src.file;
      jc["case"] = c.name;
      jc["set"] = c.set;
      jc["metric"] = c.metric;
      jc["unit"] = c.unit;
      jc["predicted"] = ok ? nlohmann::ordered_json(c.predicted) : nlohmann::ordered_json(nullptr);
      jc["published"] = c.published;
      jc["error"] = ok ? nlohmann::ordered_json(c.error()) : nlohmann::ordered_json(nullptr);
      jc["band"] = c.band;
      jc["within"] = c.within();
      jc["failure"] = ok ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.failure);
      jc["note"] = c.note;
      std::string line = "capplan";
      for (const std::string& w : c.command) line += " " + (w.find_first_of(" '\"") == std::string::npos ? w : "'" + w + "'");
      jc["command"] = line;
      if (a.leave_one_source_out) {
        const bool lo = c.left_out_failure.empty() && std::isfinite(c.left_out);
        jc["left_out_priors"] = c.priors;
        jc["left_out_predicted"] = lo ? nlohmann::ordered_json(c.left_out) : nlohmann::ordered_json(nullptr);
        jc["left_out_error"] = lo ? nlohmann::ordered_json(c.left_out_error()) : nlohmann::ordered_json(nullptr);
        jc["left_out_failure"] = c.left_out_failure.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.left_out_failure);
      }
      jcases.push_back(std::move(jc));
      mine.push_back(&c);
      all.push_back(&c);
    }
    for (std::size_t i = 0; i < row_notes.size(); ++i) {
      const RowNote& n = row_notes[i];
      t.notes.push_back("(" + std::to_string(i + 1) + ") " + (n.rows == 1 ? n.first : std::to_string(n.rows) + " rows") + ": " + n.text);
    }
    t.notes.push_back("Source: " + src.citation + (src.url.empty() ? "" : " (" + src.url + ")") + "; file " + src.file + ".");
    if (mine.empty()) continue;
    r.tables.push_back(std::move(t));
    for (const char* set : {"calibration", "validation"}) {
      std::vector<const Case*> in_set;
      for (const Case* c : mine) {
        if (c->set == set) in_set.push_back(c);
      }
      if (!in_set.empty()) summaries.push_back(summarize(src.title, set, in_set));
    }
  }
  if (all.empty()) detail::fail("--set", a.set, "selects no case in the files given");
  for (const char* set : {"calibration", "validation"}) {
    std::vector<const Case*> in_set;
    for (const Case* c : all) {
      if (c->set == set) in_set.push_back(c);
    }
    if (!in_set.empty()) summaries.push_back(summarize("all sources", set, in_set));
  }
  Table s;
  s.title = "Summary: |error| per source, calibration and validation rows apart";
  s.columns = {{"source", "source", Align::left}, {"set", "set", Align::left}, {"cases", "cases"}, {"median_abs_error", "median |error|"},
               {"max_abs_error", "max |error|"},  {"mean_signed_error", "mean signed"},  {"within_band", "within band"}};
  nlohmann::ordered_json jsum = nlohmann::ordered_json::array();
  for (const Summary& x : summaries) {
    const bool any = x.cases > x.failed;
    s.add_row({Cell::of_text(x.source), Cell::of_text(x.set), Cell::of_number(std::to_string(x.cases), static_cast<double>(x.cases)),
               any ? Cell::of_number(percent(x.median_abs), x.median_abs) : Cell::empty(),
               any ? Cell::of_number(percent(x.max_abs), x.max_abs) : Cell::empty(),
               any ? Cell::of_number(signed_percent(x.mean_signed), x.mean_signed) : Cell::empty(),
               Cell::of_number(std::to_string(x.within) + " of " + std::to_string(x.cases), static_cast<double>(x.within))});
    nlohmann::ordered_json js = {{"source", x.source}, {"set", x.set}};
    js.update(stats_json(x));
    js["within_band"] = x.within;
    jsum.push_back(std::move(js));
  }
  s.notes.push_back("error = predicted / published - 1. Calibration rows: a constant was fitted to them; validation rows: "
                    "nothing was, so their errors estimate the error on a run nobody has measured.");
  r.tables.push_back(std::move(s));
  if (a.leave_one_source_out) r.json["leave_one_source_out"] = leave_one_source_out_table(sources, all, r);
  if (a.search_realism) r.json["search_realism"] = search_realism_table(sources, a, ctx, r);
  r.json["cases"] = std::move(jcases);
  r.json["summary"] = std::move(jsum);
  for (const auto& jc : r.json["cases"]) r.explanation.push_back(jc["case"].get<std::string>() + ": " + jc["command"].get<std::string>());
  return r;
}

}  // namespace

void add_validate(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand("validate", "Predict measured runs (published or your own) and show capplan's error on each");
  cmd->add_option("files", args->paths, "Validation files, or directories of them (*.json; see docs/cli.md, capplan validate)")
      ->required();
  cmd->add_option("--set", args->set, "Only the calibration or only the validation rows");
  cmd->add_flag("--check", args->check, "Exit with status 1 when a case is outside its band or cannot be predicted");
  cmd->add_flag("--leave-one-source-out", args->leave_one_source_out,
                "Also predict each source's rows with the constants fitted on that source (its file's \"fitted\" list) at their priors, "
                "and summarize those errors per source");
  cmd->add_flag("--search-realism", args->search_realism,
                "Also let capplan choose the plan for each training rate or time of a source marked \"tuned\" (its authors tuned the plans "
                "for speed) and compare that plan's predicted rate with the published one");
  cmd->footer(
      "\nExamples:\n"
      "  capplan validate validation/cases\n"
      "  capplan validate my-runs.json --format json\n"
      "  capplan validate validation/cases --set validation --check\n"
      "  capplan validate validation/cases --leave-one-source-out\n"
      "  capplan validate validation/cases --search-realism\n");
  cmd->callback([args, &ctx] {
    const Result r = run_validate(*args, ctx);
    write(r, ctx);
    if (args->check) {
      std::size_t outside = 0, n = 0;
      for (const auto& c : r.json["cases"]) {
        ++n;
        // A left-out run that failed (--leave-one-source-out) is a case not predicted too.
        if (!c["within"].get<bool>() || (c.contains("left_out_failure") && !c["left_out_failure"].is_null())) ++outside;
      }
      if (outside) throw std::runtime_error(std::to_string(outside) + " of " + std::to_string(n) + " cases outside their band or not predicted (--check)");
    }
  });
}

}  // namespace capplan::cli
