// The `polyfuse` command line. Exit status: 0 success, 1 verification or run-time
// failure, 2 bad input or usage.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "driver/BuildInfo.h"
#include "driver/Commands.h"
#include "polyir/DeepStack.h"
#include "polyir/Diagnostic.h"

namespace {

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

int runCommandLine(int argc, char** argv) {
  using namespace polyfuse;
  CLI::App app{"polyfuse: kernel fusion of tensor programs on the polyhedral model"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("polyfuse ") + kSourceCommit + " (" + kBuildType + " build)");
  app.set_help_all_flag("--help-all", "Show help for every subcommand");
  app.option_defaults()->always_capture_default();  // --help shows every default
  CommandRegistry reg;
  registerCommands(app, reg);
  // An unknown command is named with the closest one.
  if (argc > 1 && argv[1][0] != '-') {
    std::string word = argv[1], best;
    size_t bestDistance = SIZE_MAX;
    bool known = false;
    for (auto* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      known |= sub->get_name() == word;
      size_t d = editDistance(word, sub->get_name());
      if (d < bestDistance) bestDistance = d, best = sub->get_name();
    }
    if (!known) {
      std::cerr << "polyfuse: error: unknown command '" << word << "'";
      if (bestDistance <= std::max<size_t>(2, word.size() / 3)) std::cerr << "; did you mean '" << best << "'?";
      std::cerr << "\nrun 'polyfuse --help' for the commands\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "polyfuse: error: " << e.what() << "\n";
    std::cerr << "run 'polyfuse --help' for usage\n";
    return 2;
  }
  return reg.run();
}

}  // namespace

int main(int argc, char** argv) {
  return polyfuse::runOnDeepStack([&] { return runCommandLine(argc, argv); });
}
