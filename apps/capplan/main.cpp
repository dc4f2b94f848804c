// capplan: the command-line tool. Exit codes: 0 success; 2 usage or input error (one line naming
// the flag or field); 1 any other failure. A plan that does not fit is a result, not an error.
// The process is cli.cpp's run_tool, which the browser planner (web/planner.cpp) runs too.
#include "commands.hpp"

int main(int argc, char** argv) { return capplan::cli::run_tool(argc, argv); }
