// The case file reference, docs/case_file.md, must list every key the loader knows, with every allowed word of each
// enumeration, and no key the loader does not know, so that its tables cannot drift from the schema.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "src/case/schema.hpp"

namespace aerolbm {
namespace {

const std::string kReferencePath = std::string(AEROLBM_SOURCE_DIR) + "/docs/case_file.md";

// The whole file: it holds the case file reference and nothing else, so every table row in it names a key.
std::string reference_doc() {
  std::ifstream in(kReferencePath);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The table row whose first cell is `path`, or "" if there is none.
std::string row_for(const std::string& doc, const std::string& path) {
  const std::string start = "| `" + path + "` |";
  const std::size_t at = doc.find(start);
  if (at == std::string::npos || (at > 0 && doc[at - 1] != '\n')) return "";
  return doc.substr(at, doc.find('\n', at) - at);
}

// The cells of a table row, trimmed: | Key | Type | Unit | Default | Allowed | Meaning |. A `\|` inside a cell is
// part of the cell.
std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '|' && row[i - 1] != '\\') {
      const std::size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? std::string() : cell.substr(b, e - b + 1));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return cells;
}
constexpr std::size_t kAllowedColumn = 4;

TEST(CaseReferenceDoc, EveryKeyHasARow) {
  const std::string doc = reference_doc();
  ASSERT_FALSE(doc.empty()) << kReferencePath << " is missing or empty";
  const auto paths = all_key_paths();
  ASSERT_GT(paths.size(), 30u);
  for (const std::string& path : paths)
    EXPECT_NE(row_for(doc, path), "") << kReferencePath << " has no table row for " << path;
}

TEST(CaseReferenceDoc, EveryAllowedWordIsListed) {
  const std::string doc = reference_doc();
  for (const std::string& path : all_key_paths()) {
    const KeySpec* spec = find_key_spec(path);
    ASSERT_NE(spec, nullptr) << path;
    const std::vector<std::string> cells = cells_of(row_for(doc, path));
    if (cells.empty()) continue;  // no row: EveryKeyHasARow reports it
    ASSERT_EQ(cells.size(), 6u) << path << ": a row has six cells (key, type, unit, default, allowed, meaning)";
    // In the Allowed cell: the word may also appear as the default, which does not list it.
    for (const std::string& word : spec->choices)
      EXPECT_NE(cells[kAllowedColumn].find("`" + word + "`"), std::string::npos)
          << path << ": the Allowed cell lacks `" << word << "`";
  }
}

TEST(CaseReferenceDoc, NoRowForAKeyThatDoesNotExist) {
  const std::string doc = reference_doc();
  std::istringstream lines(doc);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.starts_with("| `")) continue;
    const std::string path = line.substr(3, line.find('`', 3) - 3);
    EXPECT_NE(find_key_spec(path), nullptr) << "the reference documents unknown key " << path;
  }
}

}  // namespace
}  // namespace aerolbm
