#include "driver/Report.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "driver/FileIO.h"
#include "polyir/Diagnostic.h"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace polyfuse {

namespace {

const std::vector<std::string> kColumns = {
    "point", "program", "sizes", "strategy", "device", "weights", "num_kernels", "dram_bytes", "lower_bound_bytes",
    "l2_bytes", "modeled_us", "solve_seconds", "solver_status", "exec_backend", "exec_sizes", "measured_ms",
    "kernel_ms", "verified", "max_rel_error", "error"};

std::string cell(const json& r, const std::string& c) {
  if (!r.contains(c) || r[c].is_null()) return "";
  const json& v = r[c];
  std::string s;
  if (v.is_string()) s = v.get<std::string>();
  else if (v.is_array()) {
    for (auto& x : v) s += (s.empty() ? "" : ";") + (x.is_number_float() ? fmt::format("{:.6g}", x.get<double>()) : x.dump());
  } else if (v.is_number_float()) s = fmt::format("{:.9g}", v.get<double>());
  else s = v.dump();
  if (s.find_first_of(",\"\n") != std::string::npos) {
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    s = q + "\"";
  }
  return s;
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

// A horizontal bar chart; `reference` > 0 draws a dashed line at that value.
std::string svgBars(const std::string& title, const std::vector<std::string>& labels, const std::vector<double>& values,
                    const std::string& unit, double reference = 0) {
  const int rowH = 22, left = 110, width = 360, top = 28;
  double mx = reference;
  for (double v : values) mx = std::max(mx, v);
  if (mx <= 0) mx = 1;
  int h = top + rowH * int(values.size()) + 10;
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << left + width + 110 << "\" height=\"" << h
     << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  os << "<text x=\"4\" y=\"16\" font-weight=\"bold\">" << esc(title) << "</text>\n";
  for (size_t i = 0; i < values.size(); ++i) {
    int y = top + rowH * int(i);
    int w = int(width * values[i] / mx);
    os << "<text x=\"4\" y=\"" << y + 14 << "\">" << esc(labels[i]) << "</text>\n";
    os << "<rect x=\"" << left << "\" y=\"" << y + 3 << "\" width=\"" << std::max(w, 1) << "\" height=\"" << rowH - 6
       << "\" fill=\"" << (labels[i] == "ilp" ? "#2b7bb9" : "#9bbbd4") << "\"/>\n";
    os << "<text x=\"" << left + w + 4 << "\" y=\"" << y + 14 << "\">" << fmt::format("{:.4g}", values[i]) << " " << unit
       << "</text>\n";
  }
  if (reference > 0) {
    int x = left + int(width * reference / mx);
    os << "<line x1=\"" << x << "\" y1=\"" << top - 4 << "\" x2=\"" << x << "\" y2=\"" << h - 6
       << "\" stroke=\"#c0392b\" stroke-dasharray=\"4,3\"/>\n";
    os << "<text x=\"" << x + 3 << "\" y=\"" << top - 6 << "\" fill=\"#c0392b\">lower bound</text>\n";
  }
  os << "</svg>\n";
  return os.str();
}

// The chosen partition: statements in launch order, kernels as boxes, dependences as arcs.
std::string svgPartition(const json& plan) {
  std::vector<std::string> order;
  std::map<std::string, std::string> text;
  for (auto& s : plan["statements"]) text[s["id"]] = s["text"];
  size_t longest = 0;
  for (auto& [id, t] : text) longest = std::max(longest, id.size() + 2 + t.size());
  // Monospace at 12px is about 7.3px a character.
  const int rowH = 24, left = 60, boxW = std::max(300, int(7.3 * double(longest)) + 16), top = 30;
  std::ostringstream body;
  std::map<std::string, int> row;
  int y = top;
  int k = 0;
  for (auto& kern : plan["kernels"]) {
    int y0 = y;
    for (auto& s : kern["statements"]) {
      row[s] = y;
      order.push_back(s);
      y += rowH;
    }
    body << "<rect x=\"" << left - 8 << "\" y=\"" << y0 - 4 << "\" width=\"" << boxW + 16 << "\" height=\"" << y - y0 + 4
         << "\" rx=\"6\" fill=\"" << (k % 2 ? "#eef4fa" : "#f8f2e8") << "\" stroke=\"#888\"/>\n";
    body << "<text x=\"" << left + boxW + 14 << "\" y=\"" << y0 + 14 << "\">" << esc(kern["id"].get<std::string>()) << " "
         << esc(kern["grid"].get<std::string>()) << "</text>\n";
    y += 10;
    ++k;
  }
  for (auto& s : order)
    body << "<text x=\"" << left << "\" y=\"" << row[s] + 14 << "\" font-family=\"monospace\">" << esc(s + ": " + text[s])
         << "</text>\n";
  for (auto& d : plan["dependences"]) {
    if (!row.count(d["src"]) || !row.count(d["dst"])) continue;
    int a = row[d["src"]] + 10, b = row[d["dst"]] + 10, bend = 14 + (b - a) / 6;
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
                      (r["weights"] != "default" ? " (" + r["weights"].get<std::string>() + ")" : "");
    auto it = std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == key; });
    if (it == groups.end()) groups.push_back({key, {&r}});
    else it->second.push_back(&r);
  }
  std::ostringstream md, html;
  md << "# " << cfg.name << "\n\nGenerated by `polyfuse experiment " << fs::path(cfg.file).filename().string()
     << "`. Modeled times come from the cost model (docs/cost-model.md); measured times from the "
     << (cfg.execute.enabled ? cfg.execute.backend + " backend at the execution sizes" : "(no execution)") << ".\n\n";
  html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << esc(cfg.name) << "</title>\n<style>"
       << "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}table{border-collapse:collapse;margin:1em 0}"
       << "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#f0f0f0}td:first-child{text-align:left}"
       << ".fig{display:inline-block;vertical-align:top;margin:0 1em 1em 0}.bad{color:#c0392b;font-weight:bold}</style></head><body>\n"
       << "<h1>" << esc(cfg.name) << "</h1>\n<p>Modeled times come from the cost model; measured times from the "
       << (cfg.execute.enabled ? esc(cfg.execute.backend) + " backend at the execution sizes" : "(no execution)") << ".</p>\n";
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
       << " | verified |\n|---|---|---|---|---|---|---|\n";
    html << "<h2>" << esc(key) << "</h2>\n<table><tr><th>strategy</th><th>kernels</th><th>DRAM bytes</th><th>× lower bound</th>"
         << "<th>modeled µs</th><th>" << esc(measuredHead) << "</th><th>verified</th></tr>\n";
    std::vector<std::string> labels;
    std::vector<double> modeled, ratio;
    const json* best = nullptr;
    double lb = 0;
    for (const json* r : rows) {
      const json& x = *r;
      std::string strategy = x["strategy"];
      if (x.contains("error")) {
        md << "| " << strategy << " | error: " << x["error"].get<std::string>() << " | | | | | |\n";
        html << "<tr><td>" << esc(strategy) << "</td><td colspan=\"6\" class=\"bad\">" << esc(x["error"].get<std::string>())
             << "</td></tr>\n";
        continue;
      }
      lb = x["lower_bound_bytes"].get<double>();
      double dram = x["dram_bytes"].get<double>(), us = x["modeled_us"].get<double>();
      std::string measured = x.contains("measured_ms") ? fmt::format("{:.3f}", x["measured_ms"].get<double>()) : "–";
      std::string verified = !x.contains("verified") || x["verified"].is_null() ? "–" : x["verified"].get<bool>() ? "yes" : "NO";
      md << fmt::format("| {} | {} | {} | {:.2f} | {:.2f} | {} | {} |\n", strategy, x["num_kernels"].get<int>(),
                        fmtBytes(dram), dram / lb, us, measured, verified);
      html << fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.2f}</td><td>{:.2f}</td><td>{}</td><td{}>{}</td></tr>\n",
                          esc(strategy), x["num_kernels"].get<int>(), fmtBytes(dram), dram / lb, us, measured,
                          verified == "NO" ? " class=\"bad\"" : "", verified);
      labels.push_back(strategy);
      modeled.push_back(us);
      ratio.push_back(dram / lb);
      if (!best || strategy == "ilp" || (best->at("strategy") != "ilp" && us < best->at("modeled_us").get<double>())) best = r;
    }
    html << "</table>\n";
    md << "\n";
    if (labels.empty()) continue;
    std::string f1 = fmt::format("fig{}_modeled.svg", fig), f2 = fmt::format("fig{}_bytes.svg", fig),
                f3 = fmt::format("fig{}_partition.svg", fig);
    std::string s1 = svgBars("modeled time per strategy", labels, modeled, "us");
    std::string s2 = svgBars("DRAM bytes / lower bound", labels, ratio, "x", 1.0);
    writeAtomically(out / "figures" / f1, s1);
    writeAtomically(out / "figures" / f2, s2);
    md << "![modeled time](figures/" << f1 << ") ![bytes](figures/" << f2 << ")";
    html << "<div class=\"fig\">" << s1 << "</div><div class=\"fig\">" << s2 << "</div>";
    fs::path planPath = out / "points" / best->at("point").get<std::string>() / "plan.json";
    if (fs::exists(planPath)) {
      json plan = json::parse(std::ifstream(planPath));
      std::string s3 = svgPartition(plan);
      writeAtomically(out / "figures" / f3, s3);
      md << " ![partition](figures/" << f3 << ")";
      html << "<div class=\"fig\">" << s3 << "</div>";
    }
    md << "\n\n";
    html << "\n";
    ++fig;
  }
  html << "</body></html>\n";
  writeAtomically(out / "report.md", md.str());
  writeAtomically(out / "report.html", html.str());
}

}  // namespace polyfuse
