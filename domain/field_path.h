// The JSON path of a request field ("data.quotes[3].quoteData.payload.ohlc"),
// built only when an error names it. Validating a valid request, the common
// case, then allocates no path strings: a 300-quote batch has ~15,000 field
// paths.
//
// A FieldPath refers to its parent, so a parent must outlive its children:
// children of temporaries are refused at compile time; pass children down as
// arguments or keep them in locals declared after their parent.
#ifndef MDC_DOMAIN_FIELD_PATH_H_
#define MDC_DOMAIN_FIELD_PATH_H_

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace mdc::domain {

class FieldPath {
 public:
  // A root such as "data".
  explicit FieldPath(absl::string_view root) : name_(root) {}

  // The member `name` of this object, written ".name".
  FieldPath Field(absl::string_view name) const& {
    return FieldPath(this, name, -1);
  }
  // The list item `index` of this list, written "[index]".
  FieldPath Item(int index) const& { return FieldPath(this, {}, index); }
  // A child of a temporary would outlive its parent: name the parent.
  FieldPath Field(absl::string_view name) const&& = delete;
  FieldPath Item(int index) const&& = delete;

  std::string str() const {
    std::string out;
    AppendTo(out);
    return out;
  }

 private:
  FieldPath(const FieldPath* parent, absl::string_view name, int index)
      : parent_(parent), name_(name), index_(index) {}

  void AppendTo(std::string& out) const {
    if (parent_ != nullptr) parent_->AppendTo(out);
    if (index_ >= 0) {
      absl::StrAppend(&out, "[", index_, "]");
    } else if (parent_ != nullptr) {
      absl::StrAppend(&out, ".", name_);
    } else {
      out.append(name_.data(), name_.size());
    }
  }

  const FieldPath* parent_ = nullptr;
  absl::string_view name_;
  int index_ = -1;
};

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_FIELD_PATH_H_
