// libFuzzer target for the command line: each input is one argument vector (arguments separated by
// newlines, at most 24 of at most 256 bytes each), run in-process as `capplan ARGS... --format json`
// would run (run_for_json: every subcommand, flag parser and validator of apps/capplan). Any input
// must either produce a result or throw capplan::InputError (ParseError, LookupError and
// CurrencyError included) naming the flag; CLI11's own parse errors arrive as InputError too. Any
// other exception (std::out_of_range, nlohmann's errors, bad_alloc), a crash, a leak, undefined
// behaviour or a run past libFuzzer's -timeout is a finding.
//
// --scenario, --catalog and file-reading flags may name files that exist (the seed corpus uses the
// repository's examples); /dev/zero, FIFOs and directories are refused by the readers. Standard
// output goes to /dev/null (catalog export writes there directly).
//
//   cmake --build build/fuzz --target argv_fuzz
//   build/fuzz/argv_fuzz -max_total_time=600 -timeout=30 -dict=fuzz/argv.dict build/fuzz/corpus-argv fuzz/corpus-argv
#include "cli_run.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (std::freopen("/dev/null", "w", stdout) == nullptr) return 1;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args;
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    const char ch = static_cast<char>(data[i]);
    if (ch == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
    if (args.size() > 24 || cur.size() > 256) return -1;  // not kept in the corpus
  }
  if (!cur.empty()) args.push_back(cur);
  if (args.empty()) return 0;
  capplan::fuzz::run_cli(args);
  return 0;
}
