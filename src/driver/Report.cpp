#include "driver/Report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "runtime/Process.h"
#include "driver/BuildInfo.h"
#include "driver/FileIO.h"
#include "fusion/RankCorrelation.h"
#include "polyir/Diagnostic.h"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace polyfuse {

namespace {

const std::vector<std::string> kColumns = {
    "point", "program", "sizes", "strategy", "device", "swept_param", "swept_value", "weights", "numerics", "num_kernels", "dram_bytes", "lower_bound_bytes",
    "l2_bytes", "modeled_us", "second_best_us", "solve_seconds", "solver_status", "exec_backend", "exec_device", "exec_sizes", "exec_repeat", "exec_plan_clamps",
    "exec_modeled_us",
    "measured_ms", "measured_min_ms", "measured_max_ms", "kernel_ms", "verified", "max_rel_error", "max_error_f64", "kendall_tau",
    "spearman_rho", "regret", "error"};

// What sets a point apart beside its program, sizes and device, in a table's title: its
// cost-model weights and its numerics, where not the default.
std::string variantText(const json& r) {
  const std::string numerics = r.value("numerics", "default");
  return (r["weights"] != "default" ? " (" + r["weights"].get<std::string>() + ")" : "") +
         (numerics != "default" ? ", numerics " + numerics : "");
}

// Structured fields that results.jsonl carries beside the columns.
const std::vector<std::string> kJsonOnly = {"kernels", "second_best_kernels", "validation", "exec_window"};

std::string cell(const json& r, const std::string& c) {
  if (!r.contains(c) || r[c].is_null()) return "";
  const json& v = r[c];
  std::string s;
  if (v.is_string()) s = v.get<std::string>();
  else if (v.is_array()) {
    for (auto& x : v)
      s += (s.empty() ? "" : ";") + (x.is_number_float() ? fmt::format("{:.6g}", x.get<double>())
                                     : x.is_string()     ? x.get<std::string>()
                                                         : x.dump());
  } else if (v.is_number_float()) s = fmt::format("{:.9g}", v.get<double>());
  else s = v.dump();
  if (s.find_first_of(",\"\n") != std::string::npos) {
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    s = q + "\"";
  }
  return s;
}

// "{S0 S1}": a kernel as its statements.
std::string kernelText(const json& k) {
  std::string s;
  for (auto& st : k) s += (s.empty() ? "" : " ") + st.get<std::string>();
  return "{" + s + "}";
}

// The runner-up of the exact search against the optimum: its modeled time, and the
// kernels of each that the other does not have.
std::string secondBestLine(const json& r) {
  const double best = r["modeled_us"].get<double>(), second = r["second_best_us"].get<double>();
  std::set<std::string> mine, theirs;
  for (auto& k : r["kernels"]) mine.insert(kernelText(k));
  for (auto& k : r["second_best_kernels"]) theirs.insert(kernelText(k));
  std::string only, instead;
  for (auto& k : mine)
    if (!theirs.count(k)) only += (only.empty() ? "" : " ") + k;
  for (auto& k : theirs)
    if (!mine.count(k)) instead += (instead.empty() ? "" : " ") + k;
  return fmt::format("Second-best partition (ilp): {:.2f} µs, {:+.1f}% over the optimum; it runs {} where the optimum runs {}.",
                     second, 100.0 * (second / best - 1.0), instead, only);
}

std::string esc(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '<') r += "&lt;";
    else if (c == '>') r += "&gt;";
    else if (c == '&') r += "&amp;";
    else if (c == '"') r += "&quot;";
    else r += c;
  }
  return r;
}

// The chosen partition: statements in launch order, kernels as boxes, dependences as arcs.
// A statement a kernel recomputes for itself is a row of its own in that kernel, marked
// S1' in grey; an arc into a kernel starts at the copy there, else at the stored one.
std::string svgPartition(const json& plan) {
  struct Row {
    std::string id;
    int kernel, y;
    bool copy;
  };
  std::vector<Row> rows;
  std::map<std::string, std::string> text;
  for (auto& s : plan["statements"]) text[s["id"]] = s["text"];
  size_t longest = 0;
  for (auto& [id, t] : text) longest = std::max(longest, id.size() + 3 + t.size());
  // Monospace at 12px is about 7.3px a character.
  const int rowH = 24, left = 60, boxW = std::max(300, int(7.3 * double(longest)) + 16), top = 30;
  std::ostringstream body;
  int y = top;
  int k = 0;
  for (auto& kern : plan["kernels"]) {
    int y0 = y;
    std::set<std::string> copies;
    if (kern.contains("recomputed"))
      for (auto& c : kern["recomputed"]) copies.insert(c.get<std::string>());
    for (auto& st : kern["statements"]) {
      rows.push_back({st.get<std::string>(), k, y, copies.count(st.get<std::string>()) > 0});
      y += rowH;
    }
    body << "<rect x=\"" << left - 8 << "\" y=\"" << y0 - 4 << "\" width=\"" << boxW + 16 << "\" height=\"" << y - y0 + 4
         << "\" rx=\"6\" fill=\"" << (k % 2 ? "#eef4fa" : "#f8f2e8") << "\" stroke=\"#888\"/>\n";
    body << "<text x=\"" << left + boxW + 14 << "\" y=\"" << y0 + 14 << "\">" << esc(kern["id"].get<std::string>()) << " "
         << esc(kern["grid"].get<std::string>()) << "</text>\n";
    y += 10;
    ++k;
  }
  for (const Row& r : rows)
    body << "<text x=\"" << left << "\" y=\"" << r.y + 14 << "\" font-family=\"monospace\""
         << (r.copy ? " fill=\"#777\" font-style=\"italic\"" : "") << ">"
         << esc(r.id + (r.copy ? "': " : ": ") + text[r.id]) << "</text>\n";
  auto sourceRow = [&](const std::string& id, int kernel) -> const Row* {
    const Row* stored = nullptr;
    for (const Row& r : rows)
      if (r.id == id) {
        if (r.kernel == kernel) return &r;
        if (!r.copy && !stored) stored = &r;
      }
    return stored;
  };
  for (auto& d : plan["dependences"])
    for (const Row& to : rows) {
      if (to.id != d["dst"]) continue;
      const Row* from = sourceRow(d["src"], to.kernel);
      if (!from) continue;
      int a = from->y + 10, b = to.y + 10, bend = 14 + std::abs(b - a) / 6;
      body << "<path d=\"M " << left - 10 << " " << a << " C " << left - 10 - bend << " " << a << ", " << left - 10 - bend
           << " " << b << ", " << left - 12 << " " << b << "\" fill=\"none\" stroke=\""
           << (d["kind"] == "flow" ? "#555" : "#bbb") << "\" marker-end=\"url(#arrow)\"/>\n";
    }
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << left + boxW + 120 << "\" height=\"" << y + 10
     << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
     << "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"6\" refY=\"3\" orient=\"auto\">"
     << "<path d=\"M0,0 L6,3 L0,6 z\" fill=\"#555\"/></marker></defs>\n"
     << "<text x=\"4\" y=\"16\" font-weight=\"bold\">" << esc(plan["program"].get<std::string>() + ": " +
                                                            plan["strategy"].get<std::string>() + " partition")
     << "</text>\n"
     << body.str() << "</svg>\n";
  return os.str();
}

std::string fmtBytes(double b) {
  const char* u[] = {"B", "KiB", "MiB", "GiB"};
  int i = 0;
  while (b >= 1024 && i < 3) { b /= 1024; ++i; }
  return fmt::format("{:.3g} {}", b, u[i]);
}

std::string joinWith(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// A measurement whose runs spread more than this (slowest minus fastest, over the
// median) is flagged: its median says little about the order of close plans.
constexpr double kSpreadFlag = 0.10;

// Pairs the report lists as kept apart, per table; inspect lists every one.
constexpr size_t kMaxApartShown = 12;

// The pairs measured in the reverse of the modeled order at the execution sizes, beyond
// the noise, said in words.
std::vector<std::string> orderContradictions(const std::vector<std::string>& labels, const std::vector<double>& modeledUs,
                                             const std::vector<double>& ms, const std::vector<double>& lo,
                                             const std::vector<double>& hi) {
  std::vector<std::string> out;
  for (auto [a, b] : measuredReversals(modeledUs, lo, hi))
    out.push_back(fmt::format(
        "Measured order contradicts the model: at the execution sizes {} models {:.2f}x faster than {} ({:.3g} against "
        "{:.3g} µs) but measures {:.2f}x slower ({:.3f} against {:.3f} ms; its fastest run, {:.3f} ms, is slower than the "
        "other's slowest, {:.3f} ms).",
        labels[a], modeledUs[b] / modeledUs[a], labels[b], modeledUs[a], modeledUs[b], ms[a] / ms[b], ms[a], ms[b], lo[a],
        hi[b]));
  return out;
}

// Device, sizes, commit and date: what a figure needs to be cited.
std::string reportCaption(const ExperimentConfig& cfg, const std::vector<json>& results) {
  std::vector<std::string> devices, sizes;
  for (auto& r : results) {
    std::string d = r.value("device", ""), z = r.value("program", "") + " " + r.value("sizes", "");
    if (std::find(devices.begin(), devices.end(), d) == devices.end()) devices.push_back(d);
    if (std::find(sizes.begin(), sizes.end(), z) == sizes.end()) sizes.push_back(z);
  }
  auto join = [](const std::vector<std::string>& v) { return joinWith(v, "; "); };
  std::time_t now = std::time(nullptr);
  char date[16];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  std::string ran;
  for (auto& r : results)
    if (r.contains("exec_device") && ran.empty()) ran = r["exec_device"].get<std::string>();
  return "Device model: " + join(devices) + ". Programs and modeled sizes: " + join(sizes) + ". polyfuse " +
         kSourceCommit + ", " + date +
         (cfg.execute.enabled ? std::string(", executed on ") + backendName(cfg.execute.backend) + (ran.empty() ? "" : " (" + ran + ")")
                              : "") +
         "." +
         (std::count(cfg.numerics.begin(), cfg.numerics.end(), Numerics::Strict)
              ? " Numerics strict: every plan rounds as the reference interpreter does (serial reductions, no FMA)."
              : "") +
         (std::count(cfg.numerics.begin(), cfg.numerics.end(), Numerics::Tf32)
              ? " Numerics tf32: contractions may run on tensor cores with operands rounded to TF32."
              : "");
}

}  // namespace

void writeResults(const ExperimentConfig& cfg, const std::vector<json>& results, const fs::path& out) {
  {
    std::string csv;
    for (size_t i = 0; i < kColumns.size(); ++i) csv += (i ? "," : "") + kColumns[i];
    csv += "\n";
    std::string jsonl;
    for (auto& r : results) {
      for (size_t i = 0; i < kColumns.size(); ++i) csv += (i ? "," : "") + cell(r, kColumns[i]);
      csv += "\n";
      json row;
      for (auto& c : kColumns)
        if (r.contains(c)) row[c] = r[c];
      for (auto& c : kJsonOnly)
        if (r.contains(c)) row[c] = r[c];
      jsonl += row.dump() + "\n";
    }
    writeAtomically(out / "results.csv", csv);
    writeAtomically(out / "results.jsonl", jsonl);
  }
  fs::create_directories(out / "figures");
  // Group by program and sizes, in configuration order.
  std::vector<std::pair<std::string, std::vector<const json*>>> groups;
  for (auto& r : results) {
    std::string key = r["program"].get<std::string>() + " at " + r["sizes"].get<std::string>() +
                      (r.contains("device") ? " on " + r["device"].get<std::string>() : "") +
                      variantText(r);
    auto it = std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == key; });
    if (it == groups.end()) groups.push_back({key, {&r}});
    else it->second.push_back(&r);
  }
  // What "measured" means, said once at the top of the report.
  std::string execDevice;
  double flushed = 0;
  for (const json& r : results)
    if (r.contains("exec_device") && execDevice.empty()) {
      execDevice = r["exec_device"].get<std::string>();
      flushed = r.value("exec_flushed_bytes", 0.0);
    }
  std::string measuredMeaning =
      cfg.execute.enabled
          ? fmt::format("Measured times: the generated code on the {} backend ({}) at the execution sizes named in "
                        "each table, {} timed run(s) after one untimed warm-up, the inputs uploaded again and {} "
                        "written before each run to evict the caches; a point is timed alone, no other point timed or planned beside it. The table gives "
                        "the median wall time of a whole run (every kernel, in order), in brackets the fastest and "
                        "slowest run, and flags a spread (slowest minus fastest, over the median) above {:.0f}%.{}",
                        backendName(cfg.execute.backend), execDevice.empty() ? "no point ran" : execDevice,
                        cfg.execute.repeat, fmtBytes(flushed), kSpreadFlag * 100,
                        cfg.execute.repeat < 5 ? " Fewer than 5 runs per point: the spreads say little." : "")
          : std::string("Nothing was executed (the configuration has no `execute` section).");
  std::string caption = reportCaption(cfg, results);
  // Plans that recompute mark the copies: say what the mark means.
  bool copies = false;
  for (const json& r : results)
    if (r.contains("kernels"))
      for (auto& k : r["kernels"])
        for (auto& s : k) copies |= s.get<std::string>().back() == '\'';
  if (copies)
    caption += " A statement marked S1' is recomputed in that kernel from its inputs instead of read from memory "
               "(docs/strategies.md).";
  std::ostringstream md, html;
  md << "# " << cfg.name << "\n\nGenerated by `polyfuse experiment " << fs::path(cfg.file).filename().string()
     << "`. Modeled times come from the cost model (docs/cost-model.md). " << measuredMeaning << "\n\n"
     << caption << "\n\n";
  html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << esc(cfg.name) << "</title>\n<style>"
       << "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}table{border-collapse:collapse;margin:1em 0}"
       << "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#f0f0f0}td:first-child{text-align:left}"
       << ".fig{display:inline-block;vertical-align:top;margin:0 1em 1em 0}.bad{color:#c0392b;font-weight:bold}</style></head><body>\n"
       << "<h1>" << esc(cfg.name) << "</h1>\n<p>Modeled times come from the cost model. " << esc(measuredMeaning)
       << "</p>\n<p>" << esc(caption) << "</p>\n";
  json figData;
  figData["caption"] = caption;
  figData["groups"] = json::array();
  std::vector<std::string> otherStrategies;  // for the summary, in configuration order
  for (auto& st : cfg.strategies)
    if (st != "ilp") otherStrategies.push_back(st);
  json summary = {{"programs", json::array()}, {"strategies", otherStrategies}, {"speedup", json::array()}};
  struct Figures { std::string modeled, bytes, measured, partition, partitionSvg; };
  std::vector<Figures> figures;  // per drawn group
  std::vector<std::string> tablesMd, tablesHtml;  // per drawn group, with any undrawn tables before it
  std::vector<std::pair<int, json>> validationFigures;  // (drawn group, scatter data)
  const std::string headMd = md.str(), headHtml = html.str();
  md.str("");
  html.str("");
  int fig = 0;
  for (auto& [key, rows] : groups) {
    // Measured times come from the execution sizes, which the header states.
    std::string measuredHead = "measured ms";
    for (const json* r : rows)
      if (r->contains("exec_sizes")) {
        measuredHead += " at " + r->at("exec_sizes").get<std::string>();
        break;
      }
    md << "## " << key << "\n\n| strategy | kernels | DRAM bytes | × lower bound | modeled µs | " << measuredHead
       << " | verified | error vs float64 |\n|---|---|---|---|---|---|---|---|\n";
    html << "<h2>" << esc(key) << "</h2>\n<table><tr><th>strategy</th><th>kernels</th><th>DRAM bytes</th><th>× lower bound</th>"
         << "<th>modeled µs</th><th>" << esc(measuredHead) << "</th><th>verified</th><th>error vs float64</th></tr>\n";
    std::vector<std::string> labels;
    std::vector<double> modeled, ratio, measuredMs, measuredMin, measuredMax, spreads, measuredModeled;
    std::vector<std::string> clampLines;
    std::string measuredLabel;
    const json* best = nullptr;
    double lb = 0;
    for (const json* r : rows) {
      const json& x = *r;
      std::string strategy = x["strategy"];
      if (x.contains("error")) {
        md << "| " << strategy << " | error: " << x["error"].get<std::string>() << " | | | | | | |\n";
        html << "<tr><td>" << esc(strategy) << "</td><td colspan=\"7\" class=\"bad\">" << esc(x["error"].get<std::string>())
             << "</td></tr>\n";
        continue;
      }
      lb = x["lower_bound_bytes"].get<double>();
      double dram = x["dram_bytes"].get<double>(), us = x["modeled_us"].get<double>();
      std::string measured = "–";
      if (x.contains("measured_ms") && x["measured_ms"].is_number()) {
        measuredMs.push_back(x["measured_ms"].get<double>());
        measuredMin.push_back(x.value("measured_min_ms", measuredMs.back()));
        measuredMax.push_back(x.value("measured_max_ms", measuredMs.back()));
        measuredLabel = x["exec_backend"].get<std::string>() + " at " + x["exec_sizes"].get<std::string>() + ", " +
                        std::to_string(x.value("exec_repeat", 1)) + " runs";
        measured = fmt::format("{:.3f}", measuredMs.back());
        if (x.contains("measured_min_ms")) measured += fmt::format(" [{:.3f}–{:.3f}]", measuredMin.back(), measuredMax.back());
        double spread = relativeSpread(measuredMs.back(), measuredMin.back(), measuredMax.back());
        spreads.push_back(spread);
        if (spread > kSpreadFlag) measured += fmt::format(" ⚠ spread {:.0f}%", spread * 100);
        measuredModeled.push_back(x.value("exec_modeled_us", us));
        for (auto& c : x.value("exec_plan_clamps", std::vector<std::string>{})) clampLines.push_back(strategy + ": " + c);
      }
      std::string verified = !x.contains("verified") || x["verified"].is_null() ? "–" : x["verified"].get<bool>() ? "yes" : "NO";
      // The plan's own rounding error, against the interpreter in float64: fused and
      // unfused plans compute in different orders, and a study of numerics compares these.
      const std::string f64 = x.contains("max_error_f64") ? fmt::format("{:.2e}", x["max_error_f64"].get<double>()) : "–";
      md << fmt::format("| {} | {} | {} | {:.2f} | {:.2f} | {} | {} | {} |\n", strategy, x["num_kernels"].get<int>(),
                        fmtBytes(dram), dram / lb, us, measured, verified, f64);
      html << fmt::format(
          "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.2f}</td><td>{:.2f}</td><td>{}</td><td{}>{}</td><td>{}</td></tr>\n",
          esc(strategy), x["num_kernels"].get<int>(), fmtBytes(dram), dram / lb, us, measured,
          verified == "NO" ? " class=\"bad\"" : "", verified, f64);
      labels.push_back(strategy);
      modeled.push_back(us);
      ratio.push_back(dram / lb);
      if (!best || strategy == "ilp" || (best->at("strategy") != "ilp" && us < best->at("modeled_us").get<double>())) best = r;
    }
    html << "</table>\n";
    md << "\n";
    if (!clampLines.empty()) {
      std::string line = "Plans clamped at the execution sizes (a tile larger than its extent there): " +
                         joinWith(clampLines, "; ") + ".";
      md << line << "\n\n";
      html << "<p>" << esc(line) << "</p>\n";
    }
    if (measuredMs.size() == labels.size())
      for (const std::string& line : orderContradictions(labels, measuredModeled, measuredMs, measuredMin, measuredMax)) {
        md << line << "\n\n";
        html << "<p class=\"bad\">" << esc(line) << "</p>\n";
      }
    // How far the runner-up of the exact search is, and which kernels it changes.
    for (const json* r : rows)
      if (r->value("strategy", "") == "ilp" && r->contains("second_best_us")) {
        std::string line = secondBestLine(*r);
        md << line << "\n\n";
        html << "<p>" << esc(line) << "</p>\n";
      }
    // Why the exact search kept each connected pair apart: the dependence that forbids
    // it, or the cost term that decides against it.
    for (const json* r : rows)
      if (r->value("strategy", "") == "ilp" && !r->contains("error")) {
        fs::path planPath = out / "points" / r->at("point").get<std::string>() / "plan.json";
        if (!fs::exists(planPath)) continue;
        json plan = json::parse(std::ifstream(planPath));
        std::vector<std::string> apart;
        for (auto& d : plan.value("decisions", json::array()))
          if (!d.value("fused", true))
            apart.push_back(fmt::format("{} → {} ({} via {}): {}: {}", d["a"].get<std::string>(), d["b"].get<std::string>(),
                                        d["kind"].get<std::string>(), d["tensors"].get<std::string>(),
                                        d["verdict"].get<std::string>(), d["reason"].get<std::string>()));
        if (apart.empty()) continue;
        const size_t shown = std::min<size_t>(apart.size(), kMaxApartShown);
        md << "Kept apart by ilp, and why:\n\n";
        html << "<p>Kept apart by ilp, and why:</p>\n<ul>\n";
        for (size_t i = 0; i < shown; ++i) {
          md << "- " << apart[i] << "\n";
          html << "<li>" << esc(apart[i]) << "</li>\n";
        }
        if (shown < apart.size()) {
          std::string more = fmt::format("and {} more pairs (`polyfuse inspect` on the point lists them all)", apart.size() - shown);
          md << "- " << more << "\n";
          html << "<li>" << esc(more) << "</li>\n";
        }
        md << "\n";
        html << "</ul>\n";
      }
    // The model against measurement: every legal partition run, ranked both ways.
    for (const json* r : rows)
      if (r->contains("validation")) {
        const json& v = r->at("validation");
        std::string line = fmt::format(
            "Validation ({} on {} at {}): {}; Kendall's tau {:.3f}, Spearman's rho {:.3f}; regret {:.3f} (the model's "
            "pick measures {:.3f}x the fastest).",
            r->at("exec_backend").get<std::string>(), v["device"].get<std::string>(), r->at("exec_sizes").get<std::string>(),
            v["source"].get<std::string>(), r->at("kendall_tau").get<double>(), r->at("spearman_rho").get<double>(),
            r->at("regret").get<double>(), r->at("regret").get<double>());
        md << line << "\n\n";
        html << "<p>" << esc(line) << "</p>\n";
        json m = json::array(), x = json::array();
        for (auto& p : v["partitions"]) {
          m.push_back(p["modeled_us"]);
          x.push_back(p["measured_ms"]);
        }
        validationFigures.push_back({fig, json{{"title", key + ": modeled against measured"}, {"modeled_us", m},
                                               {"measured_ms", x}, {"label", line}}});
      }
    if (labels.empty()) continue;
    json g = {{"title", key}, {"strategies", labels}, {"modeled_us", modeled}, {"dram_ratio", ratio}};
    if (measuredMs.size() == labels.size()) {
      g["measured_ms"] = measuredMs;
      g["measured_min_ms"] = measuredMin;
      g["measured_max_ms"] = measuredMax;
      g["measured_label"] = measuredLabel + (execDevice.empty() ? "" : "\n" + execDevice);
      g["measured_spread"] = spreads;
      g["spread_flag"] = kSpreadFlag;
    }
    figData["groups"].push_back(g);
    // The summary: modeled speedup of ilp over every other strategy.
    auto ilp = std::find(labels.begin(), labels.end(), "ilp");
    if (ilp != labels.end()) {
      json row = json::array();
      for (auto& st : otherStrategies) {
        auto it = std::find(labels.begin(), labels.end(), st);
        row.push_back(it == labels.end() ? json() : json(modeled[it - labels.begin()] / modeled[ilp - labels.begin()]));
      }
      summary["programs"].push_back(key.substr(0, key.find(" on ")));
      summary["speedup"].push_back(row);
    }
    Figures f{fmt::format("fig{}_modeled", fig), fmt::format("fig{}_bytes", fig),
              measuredMs.size() == labels.size() ? fmt::format("fig{}_measured", fig) : "", "", ""};
    fs::path planPath = out / "points" / best->at("point").get<std::string>() / "plan.json";
    if (fs::exists(planPath)) {
      json plan = json::parse(std::ifstream(planPath));
      f.partition = fmt::format("fig{}_partition.svg", fig);
      f.partitionSvg = svgPartition(plan);
      writeAtomically(out / "figures" / f.partition, f.partitionSvg);
    }
    figures.push_back(f);
    tablesMd.push_back(md.str());
    tablesHtml.push_back(html.str());
    md.str("");
    html.str("");
    ++fig;
  }
  figData["summary"] = summary;
  figData["validations"] = json::array();
  for (auto& [group, data] : validationFigures) figData["validations"].push_back(data);
  // Sensitivity: points whose device sweeps a cost-model parameter, gathered per program,
  // sizes, device and weights; the report shows which ilp partition wins at each value.
  struct Sweep {
    std::string title, param;
    std::map<double, std::map<std::string, const json*>> at;  // value -> strategy -> row
  };
  std::vector<Sweep> sweeps;
  for (auto& r : results) {
    if (!r.contains("swept_param") || r.contains("error")) continue;
    const std::string param = r["swept_param"], label = r["device"];
    const std::string device = label.substr(0, label.rfind(" " + param + "="));
    std::string title = r["program"].get<std::string>() + " at " + r["sizes"].get<std::string>() + " on " + device +
                        variantText(r) + ", sweeping " +
                        param;
    auto it = std::find_if(sweeps.begin(), sweeps.end(), [&](const Sweep& w) { return w.title == title; });
    if (it == sweeps.end()) it = sweeps.insert(sweeps.end(), Sweep{title, param, {}});
    it->at[r["swept_value"].get<double>()][r["strategy"].get<std::string>()] = &r;
  }
  std::vector<std::string> sweepMd, sweepHtml;
  figData["sweeps"] = json::array();
  for (const Sweep& w : sweeps) {
    std::vector<std::string> strategies;
    for (auto& st : cfg.strategies)
      if (std::any_of(w.at.begin(), w.at.end(), [&](auto& v) { return v.second.count(st) > 0; })) strategies.push_back(st);
    // The ilp partitions in order of first appearance: P1, P2, ...
    std::vector<std::string> partitions;
    json values = json::array(), winner = json::array(), us = json::array();
    for (size_t k = 0; k < strategies.size(); ++k) us.push_back(json::array());
    std::ostringstream tm, th;
    tm << "### " << w.title << "\n\n| " << w.param << " | ilp partition |";
    th << "<h3>" << esc(w.title) << "</h3>\n<table><tr><th>" << esc(w.param) << "</th><th>ilp partition</th>";
    std::string rule = "|---|---|";
    for (auto& st : strategies) {
      tm << " " << st << " µs |";
      th << "<th>" << esc(st) << " µs</th>";
      rule += "---|";
    }
    tm << "\n" << rule << "\n";
    th << "</tr>\n";
    std::string flips, last;
    for (auto& [value, byStrategy] : w.at) {
      std::string part = "–";
      if (auto ilp = byStrategy.find("ilp"); ilp != byStrategy.end()) {
        std::string text;
        for (auto& k : ilp->second->at("kernels")) text += (text.empty() ? "" : " ") + kernelText(k);
        auto at = std::find(partitions.begin(), partitions.end(), text);
        if (at == partitions.end()) at = partitions.insert(partitions.end(), text);
        part = fmt::format("P{}: {}", at - partitions.begin() + 1, text);
        if (!last.empty() && text != last) flips += fmt::format("{}{} = {:g}", flips.empty() ? "" : ", ", w.param, value);
        last = text;
        winner.push_back(int(at - partitions.begin()) + 1);
      } else {
        winner.push_back(nullptr);
      }
      values.push_back(value);
      tm << fmt::format("| {:g} | {} |", value, part);
      th << fmt::format("<tr><td>{:g}</td><td>{}</td>", value, esc(part));
      for (size_t k = 0; k < strategies.size(); ++k) {
        auto row = byStrategy.find(strategies[k]);
        if (row == byStrategy.end()) {
          us[k].push_back(nullptr);
          tm << " – |";
          th << "<td>–</td>";
          continue;
        }
        double t = row->second->at("modeled_us").get<double>();
        us[k].push_back(t);
        tm << fmt::format(" {:.2f} |", t);
        th << fmt::format("<td>{:.2f}</td>", t);
      }
      tm << "\n";
      th << "</tr>\n";
    }
    std::string verdict = flips.empty() ? "The ilp partition is the same at every value."
                                        : "The ilp partition changes at " + flips + ".";
    tm << "\n" << verdict << "\n\n";
    th << "</table>\n<p>" << esc(verdict) << "</p>\n";
    sweepMd.push_back(tm.str());
    sweepHtml.push_back(th.str());
    figData["sweeps"].push_back({{"title", w.title}, {"param", w.param}, {"values", values}, {"strategies", strategies},
                                 {"modeled_us", us}, {"winner", winner}});
  }
  // The charts, drawn by matplotlib (tools/figures.py, embedded): SVG for the report,
  // PDF beside it for a paper. Without python3 and matplotlib the report says so.
  // A resume whose data and script are those of the last successful drawing (the stamp
  // `figures/drawn` marks one) keeps its charts: the same input draws the same files,
  // and matplotlib takes about 2 s of CPU a report.
  const fs::path figureDir = fs::absolute(out / "figures");
  const std::string data = figData.dump(1) + "\n";
  const bool current = fs::exists(figureDir / "drawn") && readWhole(figureDir / "data.json") == data &&
                       readWhole(figureDir / "figures.py") == kFiguresScript;
  bool drawn = current;
  if (!current) {
    fs::remove(figureDir / "drawn");
    writeAtomically(figureDir / "data.json", data);
    writeAtomically(figureDir / "figures.py", kFiguresScript);
    // Debian's python3 has python3-matplotlib (make deps); a python3 earlier on PATH may not.
    const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    drawn = runProcess({python, "figures.py", "."}, {figureDir.string(), (figureDir / "figures.log").string(), "=stdout"}) == 0;
    if (drawn) writeAtomically(figureDir / "drawn", "charts drawn from data.json by figures.py\n");
  }
  auto svgInline = [&](const std::string& name) {
    const std::string t = readWhole(figureDir / (name + ".svg"));
    size_t at = t.find("<svg");  // drop the XML prologue and doctype
    return at == std::string::npos ? std::string() : t.substr(at);
  };
  const std::string tailMd = md.str(), tailHtml = html.str();  // tables of trailing groups that had only errors
  md.str("");
  html.str("");
  md << headMd;
  html << headHtml;
  if (!drawn) {
    md << "*Charts not drawn: python3 with matplotlib failed (see figures/figures.log).*\n\n";
    html << "<p class=\"bad\">Charts not drawn: python3 with matplotlib failed (see figures/figures.log).</p>\n";
  } else if (!summary["speedup"].empty() && !otherStrategies.empty()) {
    md << "![speedup of ilp](figures/summary_speedup.svg) ([PDF](figures/summary_speedup.pdf))\n\n";
    html << "<div class=\"fig\">" << svgInline("summary_speedup") << "</div>\n";
  }
  for (size_t i = 0; i < figures.size(); ++i) {
    const Figures& f = figures[i];
    md << tablesMd[i];
    html << tablesHtml[i];
    if (drawn) {
      md << "![modeled time](figures/" << f.modeled << ".svg) ![bytes](figures/" << f.bytes << ".svg)";
      html << "<div class=\"fig\">" << svgInline(f.modeled) << "</div><div class=\"fig\">" << svgInline(f.bytes) << "</div>";
      if (!f.measured.empty()) {
        md << " ![measured time](figures/" << f.measured << ".svg)";
        html << "<div class=\"fig\">" << svgInline(f.measured) << "</div>";
      }
    }
    if (!f.partition.empty()) {
      md << " ![partition](figures/" << f.partition << ")";
      html << "<div class=\"fig\">" << f.partitionSvg << "</div>";
    }
    for (size_t k = 0; k < validationFigures.size(); ++k)
      if (drawn && validationFigures[k].first == int(i)) {
        md << " ![modeled against measured](figures/validation" << k << ".svg)";
        html << "<div class=\"fig\">" << svgInline("validation" + std::to_string(k)) << "</div>";
      }
    md << "\n\n";
    html << "\n";
  }
  md << tailMd;
  html << tailHtml;
  if (!sweepMd.empty()) {
    md << "## Sensitivity\n\nModeled times along each swept device parameter, and the partition ilp chooses at "
          "each value (P1, P2, ... in order of appearance).\n\n";
    html << "<h2>Sensitivity</h2>\n<p>Modeled times along each swept device parameter, and the partition ilp chooses "
            "at each value (P1, P2, ... in order of appearance).</p>\n";
  }
  for (size_t i = 0; i < sweepMd.size(); ++i) {
    md << sweepMd[i];
    html << sweepHtml[i];
    if (drawn) {
      md << "![sweep](figures/sweep" << i << ".svg) ([PDF](figures/sweep" << i << ".pdf))\n\n";
      html << "<div class=\"fig\">" << svgInline("sweep" + std::to_string(i)) << "</div>\n";
    }
  }
  html << "</body></html>\n";
  writeAtomically(out / "report.md", md.str());
  writeAtomically(out / "report.html", html.str());
}

}  // namespace polyfuse
