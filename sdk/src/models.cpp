#include "webdata/actions.hpp"
#include "webdata/formats.hpp"
#include "webdata/metadata.hpp"

namespace webdata {

FormatEntry FormatEntry::json_extraction(std::optional<Json> schema,
                                         std::optional<std::string> prompt) {
  FormatEntry e(FormatType::json());
  e.schema = std::move(schema);
  e.prompt = std::move(prompt);
  return e;
}

FormatEntry FormatEntry::screenshot(std::optional<bool> full_page, std::optional<int> quality,
                                    std::optional<Viewport> viewport) {
  FormatEntry e(FormatType::screenshot());
  e.full_page = full_page;
  e.quality = quality;
  e.viewport = viewport;
  return e;
}

FormatEntry FormatEntry::change_tracking(std::optional<std::vector<std::string>> modes,
                                         std::optional<Json> schema,
                                         std::optional<std::string> prompt,
                                         std::optional<std::string> tag) {
  FormatEntry e(FormatType::change_tracking());
  e.modes = std::move(modes);
  e.schema = std::move(schema);
  e.prompt = std::move(prompt);
  e.tag = std::move(tag);
  return e;
}

bool FormatEntry::has_options() const {
  return schema || prompt || full_page || quality || viewport || modes || tag ||
         check_prompt_injection || selectors || question || query || mode;
}

namespace {

/// An action of kind `type` with its one member `member` set to `value`.
template <class T>
Action action_with(ActionType type, std::optional<T> Action::*member, T value) {
  Action a;
  a.type = std::move(type);
  a.*member = std::move(value);
  return a;
}

}  // namespace

Action Action::wait(std::chrono::milliseconds duration) {
  return action_with(ActionType::wait(), &Action::milliseconds, duration);
}

Action Action::wait_for(std::string css_selector) {
  return action_with(ActionType::wait(), &Action::selector, std::move(css_selector));
}

Action Action::click(std::string css_selector, std::optional<bool> all) {
  Action a = action_with(ActionType::click(), &Action::selector, std::move(css_selector));
  a.all = all;
  return a;
}

Action Action::write(std::string text) {
  return action_with(ActionType::write(), &Action::text, std::move(text));
}

Action Action::press(std::string key) {
  return action_with(ActionType::press(), &Action::key, std::move(key));
}

Action Action::scroll(std::string direction, std::optional<std::string> css_selector) {
  Action a = action_with(ActionType::scroll(), &Action::direction, std::move(direction));
  a.selector = std::move(css_selector);
  return a;
}

Action Action::screenshot(std::optional<bool> full_page, std::optional<int> quality,
                          std::optional<Viewport> viewport) {
  Action a;
  a.type = ActionType::screenshot();
  a.full_page = full_page;
  a.quality = quality;
  a.viewport = viewport;
  return a;
}

Action Action::scrape() {
  Action a;
  a.type = ActionType::scrape();
  return a;
}

Action Action::execute_javascript(std::string script) {
  return action_with(ActionType::execute_javascript(), &Action::script, std::move(script));
}

Action Action::pdf(std::optional<std::string> format, std::optional<bool> landscape,
                   std::optional<double> scale) {
  Action a;
  a.type = ActionType::pdf();
  a.format = std::move(format);
  a.landscape = landscape;
  a.scale = scale;
  return a;
}

std::optional<std::string> Metadata::extra_string(const std::string& key) const {
  auto it = extras.find(key);
  if (it == extras.end()) return std::nullopt;
  if (const auto* s = std::get_if<std::string>(&it->second)) return *s;
  if (const auto* a = std::get_if<std::vector<std::string>>(&it->second)) {
    if (!a->empty()) return a->front();
  }
  return std::nullopt;
}

}  // namespace webdata
