#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace webdata::mock::content::dom {

enum class NodeType { kDocument, kElement, kText, kComment };
enum class Namespace { kHtml, kSvg, kMathMl };

struct Attribute {
  std::string name;  // lower case for HTML elements (the parser folds it)
  std::string value;
};

/// One node of the parsed page. Ids are the pre-order position, so a node's descendants are the
/// ids (id, id + subtree_size), and per-node tables are plain vectors indexed by id.
struct Node {
  NodeType type = NodeType::kElement;
  Namespace ns = Namespace::kHtml;
  std::size_t id = 0;
  std::size_t subtree_size = 1;  // this node plus its descendants
  std::string name;              // element: lower-case local name
  std::string text;              // text and comment data
  std::vector<Attribute> attributes;
  std::vector<const Node*> children;
  const Node* parent = nullptr;

  bool is_element() const { return type == NodeType::kElement; }
  bool is(std::string_view tag) const {
    return type == NodeType::kElement && ns == Namespace::kHtml && name == tag;
  }
  const std::string* attr(std::string_view attr_name) const;
  bool has_attr(std::string_view attr_name) const { return attr(attr_name) != nullptr; }
  bool has_ancestor(const Node& other) const;
};

/// Elements nested deeper than this are flattened into their ancestor at this depth (their
/// children move up, in order), as WebKit's parser does: every later walk is bounded by it.
inline constexpr std::size_t kMaxDepth = 512;

struct Tree {
  std::deque<Node> nodes;  // nodes[i].id == i; deque keeps addresses stable
  const Node* document = nullptr;
  const Node* html = nullptr;
  const Node* head = nullptr;
  const Node* body = nullptr;
};

/// Parses UTF-8 HTML with gumbo. Never throws for bad markup; invalid UTF-8 becomes U+FFFD.
Tree parse_html(std::string_view utf8);

/// HTML serialization (HTML5 fragment serialization rules) of text and attribute values.
void append_escaped_text(std::string& out, std::string_view text);
void append_escaped_attribute(std::string& out, std::string_view value);
bool is_void_element(std::string_view name);

/// Lower-cases ASCII letters.
std::string ascii_lower(std::string_view s);
bool ascii_iequals(std::string_view a, std::string_view b);
bool is_html_space(char c);
std::string_view trim_html_space(std::string_view s);
/// Text content of a subtree, whitespace collapsed to single spaces and trimmed.
std::string collapsed_text(const Node& node);

}  // namespace webdata::mock::content::dom
