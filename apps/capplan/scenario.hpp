// --scenario FILE: a whole plan in one JSON file, so a run is reproducible and shareable; and
// capplan validate (scenario.cpp, add_validate in commands.hpp): measured runs, each entered the same way.
//
//   {
//     "capplan_scenario": 1,
//     "command": "compare",                  // a subcommand, or ["catalog", "list"]
//     "model": "llama2-7b",                  // a preset id, a model file, or a model object
//     "args": {"tokens": "1e9", "budget": 50000, "sort": "own_cost_usd", "flash-attention": true}
//   }
//
// Each key of "args" is a flag of the command without its dashes; true turns a switch on and false
// off (written --flag=true, --flag=false, which the command line reads as the switch given, left out,
// or --no-flag where the switch is on by default; a flag that takes a value refuses them by name);
// numbers and strings are its value; an array gives the flag once per element.
// A model object is read in place, as --model FILE#/model (io/model_json.hpp; no temporary file).
// Flags given on the command line win over the file's. Errors (exit 2) name the file, line,
// column and key. A scenario is at most 1 MiB; duplicate keys and a nested "scenario" are errors.
#pragma once

#include <string>
#include <vector>

namespace capplan::cli {

// The command line with the scenario's command and flags put in: argv[0], then the file's command
// and flags (those not on the command line), then the command line's own arguments.
std::vector<std::string> expand_scenario(int argc, char** argv);

}  // namespace capplan::cli
