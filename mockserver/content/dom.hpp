#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.hpp"

namespace webdata::mock::content::dom {

enum class NodeType { kDocument, kElement, kText, kComment };
enum class Namespace { kHtml, kSvg, kMathMl };

struct Attribute {
  std::string name;  // lower case for HTML elements (the parser folds it)
  std::string value;
};

/// A read-only run of elements owned by the Tree (a node's children or attributes): iterates,
/// indexes and reverses like the const vector it replaces, without an allocation per node.
template <typename T>
class Span {
 public:
  using value_type = T;
  using const_iterator = const T*;
  using iterator = const_iterator;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  using reverse_iterator = const_reverse_iterator;

  Span() = default;
  Span(const T* data, std::size_t size) : data_(data), size_(size) {}

  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  reverse_iterator rbegin() const { return reverse_iterator(end()); }
  reverse_iterator rend() const { return reverse_iterator(begin()); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }

 private:
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

struct Node;

/// One node of the parsed page. Ids are the pre-order position, so a node's descendants are the
/// ids (id, id + subtree_size), and per-node tables are plain vectors indexed by id.
struct Node {
  NodeType type = NodeType::kElement;
  Namespace ns = Namespace::kHtml;
  std::size_t id = 0;
  std::size_t subtree_size = 1;  // this node plus its descendants
  std::string name;              // element: lower-case local name
  std::string_view text;         // text and comment data (owned by the Tree)
  Span<Attribute> attributes;
  Span<const Node*> children;
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

/// The parsed page. Nodes point into the tree's own storage, so a Tree moves (the buffers move
/// with it) but is never copied.
struct Tree {
  Tree() = default;
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;
  Tree(Tree&&) noexcept = default;
  Tree& operator=(Tree&&) noexcept = default;

  std::vector<Node> nodes;  // nodes[i].id == i; sized once by the parser, never reallocated
  const Node* document = nullptr;
  const Node* html = nullptr;
  const Node* head = nullptr;
  const Node* body = nullptr;

  // What Node::children, Node::attributes and Node::text point into: every node's children are
  // one run of child_slots, its attributes one run of attribute_slots, its text one run of text.
  std::vector<const Node*> child_slots;
  std::vector<Attribute> attribute_slots;
  std::unique_ptr<char[]> text_bytes;
};

/// Parses UTF-8 HTML with gumbo. Never throws for bad markup; invalid UTF-8 becomes U+FFFD.
Tree parse_html(std::string_view utf8);

/// HTML serialization (HTML5 fragment serialization rules) of text and attribute values.
void append_escaped_text(std::string& out, std::string_view text);
void append_escaped_attribute(std::string& out, std::string_view value);
bool is_void_element(std::string_view name);

inline bool is_html_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
std::string_view trim_html_space(std::string_view s);
/// Text content of a subtree, whitespace collapsed to single spaces and trimmed.
std::string collapsed_text(const Node& node);

}  // namespace webdata::mock::content::dom
