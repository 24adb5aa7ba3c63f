// The `polyfuse` command line. Exit status: 0 success, 1 verification or run-time
// failure, 2 bad input or usage.
#include <CLI/CLI.hpp>

#include <iostream>

#include "driver/Commands.h"
#include "polyir/Diagnostic.h"

int main(int argc, char** argv) {
  using namespace polyfuse;
  CLI::App app{"polyfuse: kernel fusion of tensor programs on the polyhedral model"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every subcommand");
  CommandRegistry reg;
  registerCommands(app, reg);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "polyfuse: error: " << e.what() << "\n";
    std::cerr << "run 'polyfuse --help' for usage\n";
    return 2;
  }
  return reg.run();
}
