// The outcome rule of the command-line fuzz targets (argv_fuzz, scenario_fuzz): run one command line
// in-process as `capplan ARGS --format json` would (run_for_json). A result, or capplan::InputError
// (ParseError, LookupError and CurrencyError included: exit 2 naming the flag, file or key), or
// `capplan validate --check`'s verdict (exit 1) is fine; any other exception escapes to libFuzzer as
// a finding, as do crashes, leaks and undefined behaviour.
#pragma once

#include "../apps/capplan/context.hpp"
#include "../apps/capplan/output.hpp"

#include <capplan/error.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace capplan::fuzz {

inline void run_cli(const std::vector<std::string>& args) {
  static const capplan::cli::Context parent;
  try {
    (void)capplan::cli::run_for_json(args, parent);
  } catch (const capplan::InputError&) {
    // The documented outcome for bad input.
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find("outside their band or not predicted (--check)") == std::string::npos) throw;
  }
}

}  // namespace capplan::fuzz
