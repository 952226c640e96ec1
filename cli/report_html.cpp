#include "report_html.hpp"

#include <sstream>

#include "draw.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

// The picture of `claimed == correct`, or "" when either is not a layout (an integer, a tuple,
// a verdict) or has too many cells to draw.
std::string refutation_svg(const ClaimRefutation& r) {
  try {
    Picture p = draw_expression(r.claimed + " == " + r.correct, DrawOptions{});
    p.panels[0].title = "claimed: " + r.claimed;
    p.panels[1].title = "correct: " + r.correct;
    return to_svg(p);
  } catch (const Error&) {
    return "";
  }
}

}  // namespace

std::string report_page(const std::string& title, const std::string& report_text, bool passed,
                        const std::vector<ClaimRefutation>& refutations) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << xml_escape(title)
    << "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:80em}pre{background:#f6f6f6;"
       "padding:1em;overflow-x:auto}.pass{color:#060}.fail{color:#a00}section{border-top:1px solid #ccc;"
       "margin-top:1.5em}figure{margin:0;max-width:60em}svg{max-height:60vh}</style>\n</head>\n<body>\n<h1>"
    << xml_escape(title) << "</h1>\n<p class=\"" << (passed ? "pass\">PASS" : "fail\">FAIL") << "</p>\n";
  o << "<h2>Seed errata: " << refutations.size() << " refuted claims, claimed against correct</h2>\n";
  int pictured = 0;
  for (const ClaimRefutation& r : refutations) {
    o << "<section class=\"erratum\">\n<h3><code>" << xml_escape(r.expr) << "</code></h3>\n<p>" << xml_escape(r.where)
      << "</p>\n<p>claimed <code>" << xml_escape(r.claimed) << "</code>, correct <code>" << xml_escape(r.correct) << "</code>"
      << (r.reason.empty() ? "" : " (" + xml_escape(r.reason) + ")") << "</p>\n";
    if (!r.why.empty()) o << "<p class=\"why\">" << xml_escape(r.why) << "</p>\n";
    const std::string svg = refutation_svg(r);
    if (!svg.empty()) {
      o << "<figure class=\"picture\">\n" << svg << "</figure>\n";
      ++pictured;
    }
    o << "</section>\n";
  }
  o << "<p id=\"pictured\">" << pictured << " of " << refutations.size()
    << " errata pictured (the others are not layouts)</p>\n<h2>The report</h2>\n<pre>" << xml_escape(report_text)
    << "</pre>\n</body>\n</html>\n";
  return o.str();
}

}  // namespace cuteref
