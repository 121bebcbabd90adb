// The case file reference, docs/case_file.md, must list every key the loader knows, with every allowed word of each
// enumeration, and no key the loader does not know, so that its tables cannot drift from the schema.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

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
    const std::string row = row_for(doc, path);
    for (const std::string& word : spec->choices)
      EXPECT_NE(row.find("`" + word + "`"), std::string::npos) << path << " row lacks `" << word << "`";
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
