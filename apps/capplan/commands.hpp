// capplan's subcommands, one translation unit each (cmd_<name>.cpp): add_<name> registers the
// subcommand on `app` with its flags and the callback that runs it and writes its result.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace capplan::cli {

struct Context;

void add_build(CLI::App& app, Context& ctx);    // complete priced builds for a workload and a budget (cmd_build.cpp)
void add_catalog(CLI::App& app, Context& ctx);  // catalog list|show|export|validate
void add_compare(CLI::App& app, Context& ctx);  // the purchase table
void add_memory(CLI::App& app, Context& ctx);   // per-GPU memory and what fits
void add_power(CLI::App& app, Context& ctx);    // a system's power, PSU, circuit and heat
void add_size(CLI::App& app, Context& ctx);     // RAM, CPU, storage, lanes and cooling around the GPUs (cmd_build.cpp)
void add_tco(CLI::App& app, Context& ctx);      // owning versus renting
void add_train(CLI::App& app, Context& ctx);    // one training run
void add_infer(CLI::App& app, Context& ctx);    // one serving load
void add_validate(CLI::App& app, Context& ctx); // published or measured runs predicted, with errors (scenario.cpp)

// Every subcommand and the global flags (main.cpp); and the parse of a whole command line
// (args[0] the program name), which runs the chosen subcommand.
void add_commands(CLI::App& app, Context& ctx);
void parse_command_line(CLI::App& app, std::vector<std::string> args);

// The whole tool as a process runs it (main.cpp; web/planner.cpp in the browser): argv[0] the
// program name, a scenario expanded, the chosen subcommand run, its result written to std::cout,
// help and errors to std::cout or std::cerr. Returns the exit code: 0 success; 2 usage or input
// error (one line naming the flag or field); 1 any other failure.
int run_tool(int argc, char** argv);

}  // namespace capplan::cli
