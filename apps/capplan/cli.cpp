// The command line as a library of the tool: every subcommand registered on one CLI11 app, the
// parse that names an unknown subcommand, and a whole command line run in-process for its JSON
// (capplan validate, and fuzz/argv_fuzz.cpp), and the whole process (run_tool: main.cpp and the
// browser planner, web/planner.cpp).
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"
#include "scenario.hpp"

#include <capplan/detail/text.hpp>
#include <capplan/error.hpp>
#include <capplan/version.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <exception>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace capplan::cli {

void add_commands(CLI::App& app, Context& ctx) {
  app.require_subcommand(1);
  app.fallthrough();
  app.add_option("--format", ctx.format_text, "Output: table (default), markdown, csv, json, html")
      ->check(CLI::IsMember({"table", "text", "markdown", "md", "csv", "json", "html"}));
  app.add_flag("--explain", ctx.explain, "Print the arithmetic behind every figure");
  app.add_option("--catalog", ctx.catalog_files, "Add or override catalog entries from a JSON file")
      ->check(CLI::ExistingFile);
  app.add_option("--scenario", ctx.scenario_file, "Read a whole plan (model, hardware, plan, prices) from JSON")
      ->check(CLI::ExistingFile);
  app.add_option("--today", ctx.today_text,
                 "The date prices are judged against, YYYY-MM-DD (default: CAPPLAN_TODAY, else today's UTC date): "
                 "prices older than 365 days are warned about");

  add_catalog(app, ctx);
  add_tco(app, ctx);
  add_memory(app, ctx);
  add_power(app, ctx);
  add_size(app, ctx);
  add_build(app, ctx);
  add_compare(app, ctx);
  add_train(app, ctx);
  add_infer(app, ctx);
  add_validate(app, ctx);

  // Counts are decimal integers: CLI11 would also read "0x10" and "0b11".
  const CLI::Validator decimal_integer(
      [](std::string& s) -> std::string {
        const std::size_t digits = s.find_first_not_of("0123456789", s.size() > 1 && (s[0] == '-' || s[0] == '+') ? 1 : 0);
        if (s.empty() || digits != std::string::npos || s == "-" || s == "+") return "\"" + s + "\" is not a whole number written in decimal";
        return {};
      },
      "");
  const std::function<void(CLI::App*)> check_counts = [&](CLI::App* a) {
    for (CLI::Option* o : a->get_options()) {
      if (o->get_type_name() == "INT") o->check(decimal_integer);
    }
    for (CLI::App* sub : a->get_subcommands({})) check_counts(sub);
  };
  check_counts(&app);
}

// The option `name` ("--gpus") of `app` or any of its subcommands; null when none has it.
static const CLI::Option* find_option(const CLI::App& app, const std::string& name) {
  if (const CLI::Option* o = app.get_option_no_throw(name)) return o;
  for (const CLI::App* sub : app.get_subcommands({}))
    if (const CLI::Option* o = find_option(*sub, name)) return o;
  return nullptr;
}

void parse_command_line(CLI::App& app, std::vector<std::string> args) {
  // The first word that is neither a flag nor a global flag's value must name a subcommand
  // (CLI11 alone would say "A subcommand is required").
  const CLI::App* scope = &app;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& w = args[i];
    if (w == "--format" || w == "--catalog" || w == "--scenario" || w == "--today") {
      ++i;
      continue;
    }
    if (w.rfind("-", 0) == 0) continue;
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
      known = known || sub->get_name() == w;
    }
    if (!known) {
      throw capplan::InputError("subcommand", w, "\"" + w + "\" is not a subcommand (" + names + ")");
    }
    scope = app.get_subcommand(w);
    break;
  }
  // Options are looked up in the subcommand the line runs (and its own subcommands), then globally.
  const auto option = [&](const std::string& name) -> const CLI::Option* {
    if (const CLI::Option* o = find_option(*scope, name)) return o;
    return app.get_option_no_throw(name);
  };
  // Words a scenario or validation file wrote for its booleans: --flag=true / --flag=false. For a
  // switch, true is the switch given, false the switch left out, or its --no- spelling where it is on
  // by default (--no-flash-attention); a flag that takes a value keeps the word, and refuses it by name.
  // Numbers are decimal: a value of a numeric option written in hexadecimal ("0x10", "0x1p-10"), which
  // C's number parsers would take, is refused with the flag it was given to (text options that hold
  // quantities refuse it in their parsers; file names and ids may look like "0xabc").
  std::vector<std::string> words{args.front()};
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& w = args[i];
    const auto eq = w.find('=');
    const bool long_flag = w.rfind("--", 0) == 0;
    const std::string name = long_flag ? w.substr(0, eq) : std::string();
    const CLI::Option* o = long_flag ? option(name) : nullptr;
    if (o != nullptr && eq != std::string::npos && o->get_expected_max() == 0) {
      std::string value = capplan::detail::lower_ascii(w.substr(eq + 1));
      // CLI11's spellings of true and false, in any case.
      if (value == "1" || value == "yes" || value == "on") value = "true";
      if (value == "0" || value == "no" || value == "off") value = "false";
      if (value == "true") {
        words.push_back(name);
        continue;
      }
      if (value == "false") {
        const std::string negated = "--no-" + name.substr(2);
        if (option(negated) != nullptr) words.push_back(negated);
        continue;
      }
    }
    // The value of a numeric option: the word after it, or after its '='.
    const CLI::Option* numeric = nullptr;
    std::string value;
    if (o != nullptr && eq != std::string::npos) {
      numeric = o;
      value = w.substr(eq + 1);
    } else if (i > 1 && args[i - 1].rfind("--", 0) == 0 && args[i - 1].find('=') == std::string::npos) {
      numeric = option(args[i - 1]);
      value = w;
    }
    // An empty value ("--fabric ''", "--moe-dispatch=") is a mistake, not the default: refused by name.
    if (numeric != nullptr && numeric->get_expected_max() != 0 && value.find_first_not_of(" \t") == std::string::npos) {
      const std::string flag = o != nullptr && eq != std::string::npos ? name : args[i - 1];
      throw capplan::InputError(flag, "\"" + value + "\"", flag + ": \"" + value + "\" is empty; give a value or leave the flag out");
    }
    if (numeric != nullptr && numeric->get_expected_max() != 0 && numeric->get_type_name().rfind("TEXT", 0) != 0) {
      std::size_t k = value.find_first_not_of(" \t");
      if (k != std::string::npos && (value[k] == '+' || value[k] == '-')) ++k;
      if (k != std::string::npos && k + 1 < value.size() && value[k] == '0' && (value[k + 1] == 'x' || value[k + 1] == 'X')) {
        const std::string flag = o != nullptr && eq != std::string::npos ? name : args[i - 1];
        throw capplan::InputError(flag, value, flag + ": " + value + " is hexadecimal; write the number in decimal");
      }
    }
    words.push_back(w);
  }
  args = std::move(words);
  args.erase(args.begin());  // CLI11 takes the arguments without the program name, last first
  std::reverse(args.begin(), args.end());
  app.parse(args);
}

nlohmann::ordered_json run_for_json(const std::vector<std::string>& args, const Context& parent) {
  Context ctx;
  ctx.borrow_catalog(parent);
  nlohmann::ordered_json out;
  bool written = false;
  ctx.sink = [&](const Result& r) {
    out = r.json;
    written = true;
  };
  CLI::App app{"capplan", "capplan"};
  add_commands(app, ctx);
  std::vector<std::string> full{"capplan"};
  full.insert(full.end(), args.begin(), args.end());
  try {
    parse_command_line(app, full);
  } catch (const CLI::ParseError& e) {
    throw InputError("command", args.empty() ? std::string() : args.front(), e.what());
  }
  if (!written) throw InputError("command", args.empty() ? std::string() : args.front(), "wrote no result");
  return out;
}

int run_tool(int argc, char** argv) {
  Context ctx;
  CLI::App app{"capplan: capacity planning and cost for deep-learning hardware", "capplan"};
  app.set_version_flag("--version", std::string(capplan::version_string));
  add_commands(app, ctx);

  try {
    parse_command_line(app, expand_scenario(argc, argv));
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "capplan: " << e.what() << " (see capplan --help)\n";
    return 2;
  } catch (const capplan::InputError& e) {
    std::cerr << "capplan: " << e.what() << "\n";
    return 2;
  } catch (const std::overflow_error& e) {
    // Exact arithmetic left its range: the figures given are too large; a usage error, not a fault.
    std::string what = e.what();
    if (what.rfind("capplan: ", 0) == 0) what.erase(0, 9);
    std::cerr << "capplan: " << what << "; the figures given are too large\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "capplan: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace capplan::cli
