#include "src/compare/forces_table.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

#include "src/compare/input_error.hpp"

namespace aerolbm {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

bool parse(const std::string& s, double& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

ForcesTable read_forces_csv(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in)
    throw CompareInputError(path.string() + ": missing or unreadable. A run folder needs forces.csv; point compare "
                            "at a folder written by aerolbm run.");
  ForcesTable t;
  std::string line;
  int number = 0, i_step = -1, i_time = -1, i_cd = -1, i_cl = -1;
  std::size_t columns = 0;
  bool last_complete = true;
  while (std::getline(in, line)) {
    ++number;
    last_complete = !in.eof();
    if (line.empty()) continue;
    if (line[0] == '#') {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string value = line.substr(colon + 1);
        if (!value.empty() && value[0] == ' ') value.erase(0, 1);
        t.header.emplace_back(line.substr(2 < colon ? 2 : 1, colon - (2 < colon ? 2 : 1)), value);
      }
      continue;
    }
    const auto cells = split(line);
    if (columns == 0) {
      columns = cells.size();
      for (std::size_t c = 0; c < cells.size(); ++c) {
        if (cells[c] == "step") i_step = int(c);
        if (cells[c] == "time") i_time = int(c);
        if (cells[c] == "Cd") i_cd = int(c);
        if (cells[c] == "Cl") i_cl = int(c);
      }
      if (i_step < 0 || i_time < 0 || i_cd < 0 || i_cl < 0)
        throw CompareInputError(path.string() + ":" + std::to_string(number) +
                                ": expected the column line step,time,...,Cd,Cl, got '" + line +
                                "'. Is this a forces.csv written by aerolbm run?");
      continue;
    }
    std::vector<double> v(cells.size());
    bool ok = cells.size() == columns;
    for (std::size_t c = 0; ok && c < cells.size(); ++c) ok = parse(cells[c], v[c]);
    if (!ok)
      throw CompareInputError(path.string() + ":" + std::to_string(number) + ": expected " + std::to_string(columns) +
                              " numbers, got '" + line + "'" + (last_complete ? "" : " (the file ends mid-line)") +
                              ". The file is truncated or damaged: rerun the case.");
    t.step.push_back(static_cast<std::int64_t>(v[i_step]));
    t.time.push_back(v[i_time]);
    t.cd.push_back(v[i_cd]);
    t.cl.push_back(v[i_cl]);
  }
  if (columns == 0)
    throw CompareInputError(path.string() + ": no column line (step,time,...,Cd,Cl): the file is empty or truncated. "
                            "Rerun the case.");
  return t;
}

}  // namespace aerolbm
