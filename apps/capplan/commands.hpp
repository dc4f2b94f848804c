// capplan's subcommands, one translation unit each (cmd_<name>.cpp): add_<name> registers the
// subcommand on `app` with its flags and the callback that runs it and writes its result.
#pragma once

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

}  // namespace capplan::cli
