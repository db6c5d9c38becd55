#include "content/dom.hpp"

#include <gumbo.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

namespace webdata::mock::content::dom {
namespace {

// Gumbo allocates about ten bytes of bookkeeping per byte of page (a 4 MB page: 1.2 million
// allocations, 39 MB) and frees only an eighth of it before the parse ends; the tree is copied
// out and the rest dropped at once. So one parse bumps a pointer through large blocks, ignores
// frees, and releases everything together (which also spares gumbo_destroy_output, whose
// recursion would overflow the stack on a page nested 100k deep). A few blocks are kept per
// thread for the next parse, so small pages reuse warm memory and never call malloc.
class ParseArena {
 public:
  static constexpr std::size_t kAlign = alignof(std::max_align_t);
  static constexpr std::size_t kBlockSize = std::size_t{256} << 10;
  static constexpr std::size_t kLargeSize = kBlockSize / 8;  // own block above this
  static constexpr std::size_t kKeptBlocks = 4;              // per thread, between parses

  ParseArena() = default;
  ParseArena(const ParseArena&) = delete;
  ParseArena& operator=(const ParseArena&) = delete;
  ~ParseArena() {
    Cache& cache = thread_cache();
    while (blocks_ != nullptr) {
      Block* next = blocks_->next;
      if (cache.count < kKeptBlocks) {
        blocks_->next = cache.head;
        cache.head = blocks_;
        ++cache.count;
      } else {
        std::free(blocks_);
      }
      blocks_ = next;
    }
    free_list(large_);
  }

  static void* allocate(void* self, std::size_t size) {
    auto* arena = static_cast<ParseArena*>(self);
    if (size > kLargeSize) return arena->allocate_large(size);
    const std::size_t rounded = size == 0 ? kAlign : (size + kAlign - 1) & ~(kAlign - 1);
    if (static_cast<std::size_t>(arena->limit_ - arena->cursor_) < rounded) arena->next_block();
    void* out = arena->cursor_;
    arena->cursor_ += rounded;
    return out;
  }

  static void deallocate(void* /*self*/, void* /*ptr*/) {}

 private:
  struct alignas(kAlign) Block {
    Block* next;
  };
  struct Cache {
    Cache() = default;
    Cache(const Cache&) = delete;
    Cache& operator=(const Cache&) = delete;
    ~Cache() { free_list(head); }
    Block* head = nullptr;
    std::size_t count = 0;
  };

  static Cache& thread_cache() {
    thread_local Cache cache;
    return cache;
  }

  static void free_list(Block* b) {
    while (b != nullptr) {
      Block* next = b->next;
      std::free(b);
      b = next;
    }
  }

  // Gumbo neither checks for null nor survives an exception thrown through its C frames.
  static Block* new_block(std::size_t payload) {
    if (payload > std::numeric_limits<std::size_t>::max() - sizeof(Block) - kAlign) std::abort();
    auto* b = static_cast<Block*>(std::malloc(sizeof(Block) + payload));
    if (b == nullptr) std::abort();
    return b;
  }

  void next_block() {
    Cache& cache = thread_cache();
    Block* b = cache.head;
    if (b != nullptr) {
      cache.head = b->next;
      --cache.count;
    } else {
      b = new_block(kBlockSize);
    }
    b->next = blocks_;
    blocks_ = b;
    cursor_ = reinterpret_cast<char*>(b + 1);
    limit_ = cursor_ + kBlockSize;
  }

  void* allocate_large(std::size_t size) {
    Block* b = new_block(size);
    b->next = large_;
    large_ = b;
    return b + 1;
  }

  char* cursor_ = nullptr;
  char* limit_ = nullptr;
  Block* blocks_ = nullptr;  // standard blocks, the current one first
  Block* large_ = nullptr;   // one per allocation above kLargeSize
};

std::string element_name(const GumboElement& el) {
  if (el.tag != GUMBO_TAG_UNKNOWN) return gumbo_normalized_tagname(el.tag);
  GumboStringPiece piece = el.original_tag;
  if (piece.data == nullptr || piece.length == 0) return "unknown";
  gumbo_tag_from_original_text(&piece);
  std::string_view raw(piece.data, piece.length);
  std::size_t end = 0;
  while (end < raw.size() && !is_html_space(raw[end]) && raw[end] != '/' && raw[end] != '>') ++end;
  std::string name = to_lower(raw.substr(0, end));
  return name.empty() ? std::string("unknown") : name;
}

Namespace element_namespace(GumboNamespaceEnum ns) {
  switch (ns) {
    case GUMBO_NAMESPACE_SVG:
      return Namespace::kSvg;
    case GUMBO_NAMESPACE_MATHML:
      return Namespace::kMathMl;
    case GUMBO_NAMESPACE_HTML:
      break;
  }
  return Namespace::kHtml;
}

struct Pending {
  const GumboNode* source;
  Node* parent;
  std::size_t depth;
};

const GumboVector* children_of(const GumboNode* g) {
  switch (g->type) {
    case GUMBO_NODE_DOCUMENT:
      return &g->v.document.children;
    case GUMBO_NODE_ELEMENT:
    case GUMBO_NODE_TEMPLATE:
      return &g->v.element.children;
    default:
      return nullptr;
  }
}

// Upper bounds of what convert() stores (flattened elements are counted but not kept), so the
// tree's buffers are allocated once and the pointers into them stay valid.
struct Sizes {
  std::size_t nodes = 0;
  std::size_t attributes = 0;
  std::size_t text = 0;
};

Sizes measure(const GumboNode* root) {
  Sizes sizes;
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* g = stack.back();
    stack.pop_back();
    ++sizes.nodes;
    if (const GumboVector* children = children_of(g)) {
      if (g->type != GUMBO_NODE_DOCUMENT) sizes.attributes += g->v.element.attributes.length;
      for (unsigned i = 0; i < children->length; ++i) {
        stack.push_back(static_cast<const GumboNode*>(children->data[i]));
      }
    } else {
      sizes.text += std::strlen(g->v.text.text);
    }
  }
  return sizes;
}

Tree convert(const GumboNode* root) {
  const Sizes sizes = measure(root);
  Tree tree;
  tree.nodes.reserve(sizes.nodes);
  tree.attribute_slots.reserve(sizes.attributes);
  tree.text_bytes.reset(new char[std::max<std::size_t>(sizes.text, 1)]);
  char* text_end = tree.text_bytes.get();
  auto add_text = [&](Node& node, const char* text) {
    const std::size_t length = std::strlen(text);
    std::memcpy(text_end, text, length);
    node.text = std::string_view(text_end, length);
    text_end += length;
  };

  std::vector<Pending> stack;
  stack.push_back({root, nullptr, 0});
  while (!stack.empty()) {
    Pending item = stack.back();
    stack.pop_back();
    const GumboNode* g = item.source;
    Node* self = nullptr;
    switch (g->type) {
      case GUMBO_NODE_DOCUMENT:
        self = &tree.nodes.emplace_back();
        self->type = NodeType::kDocument;
        break;
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE: {
        if (item.depth > kMaxDepth) break;  // flattened: children go to item.parent
        self = &tree.nodes.emplace_back();
        self->type = NodeType::kElement;
        self->ns = element_namespace(g->v.element.tag_namespace);
        self->name = element_name(g->v.element);
        const GumboVector& attributes = g->v.element.attributes;
        const std::size_t first = tree.attribute_slots.size();
        for (unsigned i = 0; i < attributes.length; ++i) {
          const auto* a = static_cast<const GumboAttribute*>(attributes.data[i]);
          tree.attribute_slots.push_back({to_lower(a->name), a->value});
        }
        self->attributes = Span<Attribute>(tree.attribute_slots.data() + first, attributes.length);
        break;
      }
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_CDATA:
      case GUMBO_NODE_WHITESPACE:
        self = &tree.nodes.emplace_back();
        self->type = NodeType::kText;
        add_text(*self, g->v.text.text);
        break;
      case GUMBO_NODE_COMMENT:
        self = &tree.nodes.emplace_back();
        self->type = NodeType::kComment;
        add_text(*self, g->v.text.text);
        break;
    }
    Node* parent_for_children = item.parent;
    if (self != nullptr) {
      self->id = tree.nodes.size() - 1;
      self->parent = item.parent;
      parent_for_children = self;
    }
    if (const GumboVector* children = children_of(g)) {
      std::size_t child_depth = self != nullptr ? item.depth + 1 : item.depth;
      for (unsigned i = children->length; i > 0; --i) {
        stack.push_back(
            {static_cast<const GumboNode*>(children->data[i - 1]), parent_for_children, child_depth});
      }
    }
  }
  for (std::size_t i = tree.nodes.size(); i-- > 1;) {
    Node& n = tree.nodes[i];
    const_cast<Node*>(n.parent)->subtree_size += n.subtree_size;
  }
  // Ids are pre-order, so a node's children are id + 1 and then each next sibling one subtree
  // further; every node but the document is one slot.
  tree.child_slots.resize(tree.nodes.size() - 1);
  std::size_t slot = 0;
  for (Node& n : tree.nodes) {
    const std::size_t first = slot;
    for (std::size_t c = n.id + 1; c < n.id + n.subtree_size; c += tree.nodes[c].subtree_size) {
      tree.child_slots[slot++] = &tree.nodes[c];
    }
    n.children = Span<const Node*>(tree.child_slots.data() + first, slot - first);
  }
  tree.document = &tree.nodes.front();
  for (const Node* c : tree.document->children) {
    if (c->is("html")) tree.html = c;
  }
  if (tree.html != nullptr) {
    for (const Node* c : tree.html->children) {
      if (c->is("head") && tree.head == nullptr) tree.head = c;
      if (c->is("body") && tree.body == nullptr) tree.body = c;
    }
  }
  return tree;
}

bool ieq_prefix(std::string_view s, std::size_t pos, std::string_view lower_word) {
  if (pos + lower_word.size() > s.size()) return false;
  return iequals(s.substr(pos, lower_word.size()), lower_word);
}

bool is_ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Elements that never nest deeper on their own: void elements and those whose start tag
// closes an open one of their kind (<p>, <li>, <td>...). They are not counted as depth.
bool is_depth_neutral(std::string_view name) {
  static constexpr std::string_view kNeutral[] = {
      "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
      "source", "track", "wbr", "keygen", "p", "li", "dt", "dd", "option", "optgroup", "tr",
      "td", "th", "tbody", "thead", "tfoot", "colgroup", "caption", "rb", "rt", "rp", "rtc",
      "html", "head", "body", "frame", "image"};
  return std::find(std::begin(kNeutral), std::end(kNeutral), name) != std::end(kNeutral);
}

bool is_raw_text(std::string_view name) {
  return name == "script" || name == "style" || name == "textarea" || name == "title" ||
         name == "xmp" || name == "iframe" || name == "noembed" || name == "noframes" ||
         name == "noscript";
}

// The end of the tag starting at `pos` (one past '>'), honouring quoted attribute values.
std::size_t tag_end(std::string_view s, std::size_t pos) {
  std::size_t i = pos;
  while (i < s.size()) {
    char c = s[i];
    if (c == '>') return i + 1;
    if (c == '=') {
      ++i;
      while (i < s.size() && is_html_space(s[i])) ++i;
      if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
        std::size_t close = s.find(s[i], i + 1);
        if (close == std::string_view::npos) return s.size();
        i = close + 1;
      }
      continue;
    }
    ++i;
  }
  return s.size();
}

// Gumbo spends time proportional to the depth of the open-element stack on many start tags,
// so a page nested 100k deep takes minutes. This pass, a rough tokenizer, drops the start and
// end tags of elements that would open deeper than max_depth (their content stays, flattened).
// Returns nullopt when nothing needed dropping, which is every ordinary page.
std::optional<std::string> limit_nesting(std::string_view s, std::size_t max_depth) {
  struct Open {
    std::string name;
    bool dropped;
  };
  std::vector<Open> stack;
  std::vector<std::pair<std::size_t, std::size_t>> cuts;  // byte ranges to remove
  std::size_t i = 0;
  while (true) {
    i = s.find('<', i);
    if (i == std::string_view::npos || i + 1 >= s.size()) break;
    char next = s[i + 1];
    if (ieq_prefix(s, i, "<!--")) {
      std::size_t end = s.find("-->", i + 4);
      if (end == std::string_view::npos) break;
      i = end + 3;
    } else if (next == '!' || next == '?') {
      std::size_t end = s.find('>', i);
      if (end == std::string_view::npos) break;
      i = end + 1;
    } else if (next == '/' && i + 2 < s.size() && is_ascii_alpha(s[i + 2])) {
      std::size_t n = i + 2;
      while (n < s.size() && !is_html_space(s[n]) && s[n] != '/' && s[n] != '>') ++n;
      std::string name = to_lower(s.substr(i + 2, n - i - 2));
      std::size_t end = tag_end(s, n);
      // The matching open element, if it is near the top (an end tag closes what it skips).
      std::size_t limit = stack.size() > 256 ? stack.size() - 256 : 0;
      for (std::size_t k = stack.size(); k-- > limit;) {
        if (stack[k].name == name) {
          if (stack[k].dropped) cuts.emplace_back(i, end);
          stack.resize(k);
          break;
        }
      }
      i = end;
    } else if (is_ascii_alpha(next)) {
      std::size_t n = i + 1;
      while (n < s.size() && !is_html_space(s[n]) && s[n] != '/' && s[n] != '>') ++n;
      std::string name = to_lower(s.substr(i + 1, n - i - 1));
      std::size_t end = tag_end(s, n);
      bool self_closing = end >= 2 && s[end - 1] == '>' && s[end - 2] == '/';
      if (name == "plaintext") break;
      if (is_raw_text(name)) {
        std::size_t close = i = end;
        while (true) {
          close = s.find("</", close);
          if (close == std::string_view::npos || ieq_prefix(s, close + 2, name)) break;
          close += 2;
        }
        if (close == std::string_view::npos) break;
        i = close;
        continue;
      }
      if (!self_closing && !is_depth_neutral(name)) {
        bool drop = stack.size() >= max_depth;
        if (drop) cuts.emplace_back(i, end);
        stack.push_back({std::move(name), drop});
      }
      i = end;
    } else {
      ++i;
    }
  }
  if (cuts.empty()) return std::nullopt;
  std::string out;
  out.reserve(s.size());
  std::size_t from = 0;
  for (const auto& [begin, end] : cuts) {
    out.append(s.substr(from, begin - from));
    from = end;
  }
  out.append(s.substr(from));
  return out;
}

}  // namespace

const std::string* Node::attr(std::string_view attr_name) const {
  for (const auto& a : attributes) {
    if (a.name == attr_name) return &a.value;
  }
  return nullptr;
}

bool Node::has_ancestor(const Node& other) const {
  return id > other.id && id < other.id + other.subtree_size;
}

Tree parse_html(std::string_view utf8) {
  ParseArena arena;
  GumboOptions options = kGumboDefaultOptions;
  options.allocator = &ParseArena::allocate;
  options.deallocator = &ParseArena::deallocate;
  options.userdata = &arena;
  options.max_errors = 0;  // parse errors are of no use here and cost memory
  std::optional<std::string> limited = limit_nesting(utf8, kMaxDepth);
  if (limited) utf8 = *limited;
  GumboOutput* output = gumbo_parse_with_options(&options, utf8.data(), utf8.size());
  // No gumbo_destroy_output: the arena frees everything without walking the tree.
  return convert(output->document);
}

void append_escaped_text(std::string& out, std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      default:
        if (c == '\xC2' && i + 1 < text.size() && text[i + 1] == '\xA0') {
          out += "&nbsp;";
          ++i;
        } else {
          out += c;
        }
    }
  }
}

void append_escaped_attribute(std::string& out, std::string_view value) {
  for (std::size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        if (c == '\xC2' && i + 1 < value.size() && value[i + 1] == '\xA0') {
          out += "&nbsp;";
          ++i;
        } else {
          out += c;
        }
    }
  }
}

bool is_void_element(std::string_view name) {
  static constexpr std::string_view kVoid[] = {"area",  "base",   "br",   "col",  "embed",
                                               "hr",    "img",    "input", "link", "meta",
                                               "param", "source", "track", "wbr"};
  return std::find(std::begin(kVoid), std::end(kVoid), name) != std::end(kVoid);
}

std::string_view trim_html_space(std::string_view s) {
  while (!s.empty() && is_html_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_html_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string collapsed_text(const Node& node) {
  std::string out;
  bool pending_space = false;
  std::vector<const Node*> stack{&node};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n->type == NodeType::kText) {
      for (char c : n->text) {
        if (is_html_space(c)) {
          pending_space = true;
        } else {
          if (pending_space && !out.empty()) out += ' ';
          pending_space = false;
          out += c;
        }
      }
    } else if (n->type == NodeType::kElement || n->type == NodeType::kDocument) {
      for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) stack.push_back(*it);
    }
  }
  return out;
}

}  // namespace webdata::mock::content::dom
