#pragma once
// Bad input from the user: a case key, a file, an option, an output folder, a backend that is not there. Every
// command turns it into its message on stderr and exit status 2 (src/app/exit_status.hpp); the Python module
// raises aerolbm.InputError with the same message. The specific errors derive from it: CaseError (src/case),
// GeometryError (src/geometry), CompareInputError (src/compare), surrogate::ModelFileError, BackendUnavailable
// (src/solver).
// The standard library only: src/case and src/geometry (the fuzz targets' library) and the Python session's
// plain-C++ API include it.
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace aerolbm {

// One problem in the parts a message names, written by text() as
// "<source>[:<line>]: [<key>: ]expected <expected>, got <got>.[ <todo>]", e.g.
// "cases/x.yaml:3: physics.mach: expected a number in (0, 0.3], got 0.45. Lower the Mach number ...".
struct InputProblem {
  std::string source;    // the file, or where else the value came from: "command line (--set physics.mach=0.45)"
  int line = 0;          // 1-based line in `source`; 0: none (the whole file, or not a file)
  std::string key;       // the key path (physics.mach, geometry.file); empty: the file or value as a whole
  std::string expected;  // what was expected: "a number in (0, 0.3]"
  std::string got;       // what was found: "0.45", "nothing (the key is missing)"
  std::string todo;      // what to do about it; may be empty

  std::string text() const {
    std::string s = source;
    if (line > 0) s.append(":").append(std::to_string(line));
    s.append(": ");
    if (!key.empty()) s.append(key).append(": ");
    s.append("expected ").append(expected).append(", got ").append(got).append(".");
    if (!todo.empty()) s.append(" ").append(todo);
    return s;
  }
};

// Default visibility: the Python module's shared libraries throw it from one and catch it in the other.
class __attribute__((visibility("default"))) InputError : public std::runtime_error {
 public:
  // A message written whole; it names the file or option, what is wrong and what to do.
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
  explicit InputError(const char* message) : std::runtime_error(message) {}
  // One problem, its message written by InputProblem::text().
  explicit InputError(InputProblem problem)
      : std::runtime_error(problem.text()),
        problems_(std::make_shared<const std::vector<InputProblem>>(1, std::move(problem))) {}
  // Several problems reported together in `message` (one per line).
  InputError(std::vector<InputProblem> problems, const std::string& message)
      : std::runtime_error(message),
        problems_(std::make_shared<const std::vector<InputProblem>>(std::move(problems))) {}

  // The problems in parts; empty when the message was written whole.
  const std::vector<InputProblem>& problems() const noexcept {
    static const std::vector<InputProblem> none;
    return problems_ ? *problems_ : none;
  }

 private:
  std::shared_ptr<const std::vector<InputProblem>> problems_;  // shared: copying an exception does not throw
};

}  // namespace aerolbm
