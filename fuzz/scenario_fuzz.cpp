// libFuzzer target for the files a user hands to the command line as a whole plan: each input is the
// text of a scenario file (`capplan --scenario FILE`, apps/capplan/scenario.hpp) and of a validation
// case file (`capplan validate FILE`), read from disk as the tool reads them (size limit, regular file,
// JSON with line and column), expanded into a command line and run in-process (run_for_json). An
// inline model object is read back from the same file (`FILE#/model`), so the model reader is reached
// too. Any input must either produce a result or throw capplan::InputError naming the file, key or
// flag; any other exception, a crash, a leak, undefined behaviour or a run past -timeout is a finding.
//
// The input is written to one file made by mkstemps (a name nobody can predict, created O_EXCL, mode
// 0600) and rewritten for every input; it is removed when the process exits.
//
//   cmake --build build/fuzz --target scenario_fuzz
//   build/fuzz/scenario_fuzz -max_total_time=600 -timeout=30 -dict=fuzz/scenario.dict build/fuzz/corpus-scenario fuzz/corpus-scenario
#include "../apps/capplan/scenario.hpp"
#include "cli_run.hpp"

#include <capplan/error.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

std::string g_path;
int g_fd = -1;

void remove_file() {
  if (!g_path.empty()) (void)::unlink(g_path.c_str());
}

bool write_input(const std::uint8_t* data, std::size_t size) {
  if (::ftruncate(g_fd, 0) != 0) return false;
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pwrite(g_fd, data + done, size - done, static_cast<off_t>(done));
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (std::freopen("/dev/null", "w", stdout) == nullptr) return 1;
  const char* dir = std::getenv("TMPDIR");
  std::string tmpl = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/capplan-scenario-fuzz-XXXXXX.json";
  g_fd = ::mkstemps(tmpl.data(), 5);
  if (g_fd < 0) return 1;
  g_path = tmpl;
  std::atexit(remove_file);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return -1;  // the readers' limits are tested elsewhere; keep inputs quick
  if (g_fd < 0 || !write_input(data, size)) std::abort();
  // As `capplan --scenario FILE --format json`: the scenario's command and flags, then the run.
  std::vector<std::string> argv_text{"capplan", "--scenario", g_path, "--format", "json"};
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  std::vector<std::string> expanded;
  try {
    expanded = capplan::cli::expand_scenario(static_cast<int>(argv.size()), argv.data());
  } catch (const capplan::InputError&) {
    expanded.clear();
  }
  if (expanded.size() > 1) capplan::fuzz::run_cli(std::vector<std::string>(expanded.begin() + 1, expanded.end()));
  // As `capplan validate FILE`: the same text as a file of measured runs.
  capplan::fuzz::run_cli({"validate", g_path});
  return 0;
}
