#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "content/dom.hpp"

namespace webdata::mock::content::selector {

class SelectorList;
SelectorList parse_all(const std::vector<std::string>& selectors);

/// A parsed CSS selector list. Supported: type and `*`, `.class`, `#id`, `[attr]`,
/// `[attr=v]` (also `~=`, `|=`, `^=`, `$=`, `*=`, quoted values, trailing ` i`), compounds
/// (`div.note#x`), the combinators descendant, `>`, `+`, `~`, and comma lists.
/// Pseudo-classes and pseudo-elements are refused: they need a browser to mean anything.
class SelectorList {
 public:
  /// Throws SelectorError (document.hpp) with the reason and position.
  static SelectorList parse(std::string_view text);
  bool matches(const dom::Node& element) const;
  bool empty() const { return complexes_.empty(); }

  struct AttributeTest {
    std::string name;
    char op = 0;  // 0 (presence), '=', '~', '|', '^', '$', '*'
    std::string value;
    bool case_insensitive = false;
  };
  struct Compound {
    std::string type;  // empty or "*" matches any element
    std::vector<std::string> ids;
    std::vector<std::string> classes;
    std::vector<AttributeTest> attributes;
  };
  struct Step {
    Compound compound;
    char combinator = 0;  // how this step relates to the next one to the right: ' ', '>', '+', '~'
  };
  using Complex = std::vector<Step>;

 private:
  friend SelectorList parse_all(const std::vector<std::string>& selectors);
  std::vector<Complex> complexes_;
};

/// Parses every non-blank selector of the list into one SelectorList; throws SelectorError.
SelectorList parse_all(const std::vector<std::string>& selectors);

}  // namespace webdata::mock::content::selector
