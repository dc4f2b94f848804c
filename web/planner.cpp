// The planner in the browser: capplan's command-line tool compiled to WebAssembly (web/CMakeLists.txt)
// and run in-process on the command lines the page (web/planner.js) builds from its form. The figures
// are the tool's own: the same sources (apps/capplan), the same built-in catalog, the same output
// objects, so the page and `capplan ... --format json` print the same JSON.
//
// Two functions are exported to JavaScript:
//   capplan_run(request)       request: a JSON array of strings, the command line without the program
//                              name (["train", "--model", "llama2-7b", ...]); returns a JSON object
//                              {"exit": 0|1|2, "stdout": "...", "stderr": "..."}: what the process
//                              would exit with and write.
//   capplan_put_file(name, text)  stores a file (a pasted model or catalog) in the page's in-memory
//                              file system as /input/NAME, for --model /input/NAME; returns the path,
//                              or "" with the reason on standard error for a bad name or size.
// Both return a pointer into a buffer that stays valid until the next call.
#include "../apps/capplan/commands.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <vector>

namespace {

// Requests and stored files larger than this are refused before parsing (a pasted model file is a
// few kilobytes; the tool's own readers limit catalog and model files to 16 MiB).
constexpr std::size_t max_request_bytes = std::size_t{1} << 20;
constexpr std::size_t max_file_bytes = std::size_t{16} << 20;

// Sends a stream to a string for the life of the object, and back to its own buffer after it, also
// when the run throws.
class Capture {
 public:
  explicit Capture(std::ostream& s) : stream_(s), saved_(s.rdbuf(text_.rdbuf())) {}
  ~Capture() { stream_.rdbuf(saved_); }
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  [[nodiscard]] std::string text() const { return text_.str(); }

 private:
  std::ostream& stream_;
  std::ostringstream text_;
  std::streambuf* saved_;
};

std::string reply;  // what the last call returned

const char* give(std::string text) {
  reply = std::move(text);
  return reply.c_str();
}

std::string outcome(int exit_code, const std::string& out, const std::string& err) {
  nlohmann::ordered_json j;
  j["exit"] = exit_code;
  j["stdout"] = out;
  j["stderr"] = err;
  // Invalid UTF-8 (a byte from a pasted file echoed in an error) is replaced, never a throw here.
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

extern "C" {

const char* capplan_run(const char* request) {
  const std::string text = request == nullptr ? std::string() : std::string(request);
  if (text.size() > max_request_bytes) {
    return give(outcome(2, "", "capplan: request: " + std::to_string(text.size()) + " bytes, more than the 1 MiB a command line may have\n"));
  }
  std::vector<std::string> args{"capplan"};
  try {
    const nlohmann::json words = nlohmann::json::parse(text);
    if (!words.is_array()) throw std::invalid_argument("not an array");
    for (const auto& w : words) {
      if (!w.is_string()) throw std::invalid_argument("an element is not a string");
      args.push_back(w.get<std::string>());
    }
  } catch (const std::exception& e) {
    return give(outcome(2, "", std::string("capplan: request: must be a JSON array of strings (") + e.what() + ")\n"));
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int exit_code = 1;
  std::string out, err;
  {
    Capture o(std::cout), e(std::cerr);
    try {
      exit_code = capplan::cli::run_tool(static_cast<int>(args.size()), argv.data());
    } catch (const std::exception& ex) {  // run_tool reports every exception itself; this is a backstop
      std::cerr << "capplan: " << ex.what() << "\n";
      exit_code = 1;
    }
    std::cout.flush();
    out = o.text();
    err = e.text();
  }
  return give(outcome(exit_code, out, err));
}

const char* capplan_put_file(const char* name, const char* text) {
  const std::string n = name == nullptr ? std::string() : std::string(name);
  const std::string body = text == nullptr ? std::string() : std::string(text);
  const bool good_name = !n.empty() && n.size() <= 64 && n.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.-") == std::string::npos &&
                         n.front() != '.';
  if (!good_name) {
    std::cerr << "capplan: file name \"" << n << "\": use 1 to 64 of a-z 0-9 . _ -, not starting with a dot\n";
    return give("");
  }
  if (body.size() > max_file_bytes) {
    std::cerr << "capplan: file " << n << ": " << body.size() << " bytes, more than 16 MiB\n";
    return give("");
  }
  std::error_code ec;
  std::filesystem::create_directories("/input", ec);
  const std::string path = "/input/" + n;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << body;
  f.close();
  if (!f) {
    std::cerr << "capplan: file " << n << ": could not be stored\n";
    return give("");
  }
  return give(path);
}

}  // extern "C"
