// capplan: the command-line tool. Exit codes: 0 success; 2 usage or input error (one line naming
// the flag or field); 1 any other failure. A plan that does not fit is a result, not an error.
#include "commands.hpp"
#include "context.hpp"
#include "scenario.hpp"

#include <capplan/error.hpp>
#include <capplan/version.hpp>

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  using namespace capplan;
  cli::Context ctx;
  CLI::App app{"capplan: capacity planning and cost for deep-learning hardware", "capplan"};
  app.set_version_flag("--version", std::string(capplan::version_string));
  cli::add_commands(app, ctx);

  try {
    cli::parse_command_line(app, cli::expand_scenario(argc, argv));
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
  } catch (const std::exception& e) {
    std::cerr << "capplan: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
