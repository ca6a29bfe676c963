//===- KernelMutator.cpp - Mutations of kernel text that parse ------------===//

#include "KernelMutator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cctype>
#include <cstdint>
#include <vector>

using namespace tilekit::fuzz;

namespace {
struct Span {
  size_t begin, end;
};

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '$';
}

/// Whether the text before `pos` makes a digit run there a number: not the
/// tail of a name (`f32`, `%arg0`, `@f1`), but a shape's `16x32` counts.
bool startsNumber(llvm::StringRef text, size_t pos) {
  if (pos == 0)
    return true;
  char before = text[pos - 1];
  if (before == 'x' && pos >= 2 &&
      std::isdigit(static_cast<unsigned char>(text[pos - 2])))
    return true;
  return !isWordChar(before) && before != '%' && before != '@' &&
         before != '#' && before != '^' && before != '!';
}

std::vector<Span> findNumbers(llvm::StringRef text) {
  std::vector<Span> spans;
  for (size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[end])))
      ++end;
    if (startsNumber(text, i)) {
      size_t begin = (i > 0 && text[i - 1] == '-') ? i - 1 : i;
      spans.push_back({begin, end});
    }
    i = end;
  }
  return spans;
}

/// Bare words: op names, types, keywords. A shape's `x` before an element
/// type is not part of the word (`16xf32` holds `f32`).
std::vector<Span> findWords(llvm::StringRef text) {
  std::vector<Span> spans;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_') {
      ++i;
      continue;
    }
    auto digitAt = [&](size_t pos) {
      return std::isdigit(static_cast<unsigned char>(text[pos]));
    };
    if (c == 'x' && i > 0 && digitAt(i - 1)) {
      ++i; // the separator of a shape, `16x32`
      continue;
    }
    size_t end = i;
    while (end < text.size() && isWordChar(text[end]))
      ++end;
    char before = i > 0 ? text[i - 1] : ' ';
    bool shapeTail = before == 'x' && i >= 2 && digitAt(i - 2);
    bool sigil = before == '%' || before == '@' || before == '#' ||
                 before == '^' || before == '!' || before == '_' ||
                 std::isalnum(static_cast<unsigned char>(before));
    if (shapeTail || !sigil)
      spans.push_back({i, end});
    i = end;
  }
  return spans;
}

std::vector<Span> findValueNames(llvm::StringRef text) {
  std::vector<Span> spans;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%')
      continue;
    size_t end = i + 1;
    while (end < text.size() && (isWordChar(text[end]) || text[end] == '#'))
      ++end;
    if (end > i + 1)
      spans.push_back({i, end});
    i = end - 1;
  }
  return spans;
}

template <typename T>
const T &pick(const std::vector<T> &items, std::mt19937_64 &rng) {
  return items[std::uniform_int_distribution<size_t>(0, items.size() - 1)(rng)];
}

std::string mutateNumber(llvm::StringRef number, std::mt19937_64 &rng) {
  static const std::vector<std::string> interesting = {"0",
                                                       "1",
                                                       "-1",
                                                       "2",
                                                       "3",
                                                       "7",
                                                       "8",
                                                       "15",
                                                       "16",
                                                       "17",
                                                       "31",
                                                       "32",
                                                       "33",
                                                       "64",
                                                       "127",
                                                       "128",
                                                       "255",
                                                       "256",
                                                       "4096",
                                                       "65536",
                                                       "2147483647",
                                                       "2147483648",
                                                       "4294967296",
                                                       "-2147483648",
                                                       "4611686018427387904",
                                                       "9223372036854775807",
                                                       "-9223372036854775808"};
  int64_t value = 0;
  bool parsed = !number.getAsInteger(10, value);
  switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
  case 0:
    if (parsed && value < INT64_MAX)
      return std::to_string(value + 1);
    break;
  case 1:
    if (parsed && value > INT64_MIN)
      return std::to_string(value - 1);
    break;
  case 2:
    if (parsed && value < (INT64_MAX / 2) && value > (INT64_MIN / 2))
      return std::to_string(std::uniform_int_distribution<int64_t>(
          0, 2 * std::max<int64_t>(value, 1))(rng));
    break;
  default:
    break;
  }
  return pick(interesting, rng);
}

void replace(std::string &text, Span span, llvm::StringRef with) {
  text.replace(span.begin, span.end - span.begin, with.str());
}

/// Replaces `span`, or, half of the time, every span of `spans` with the
/// same text: the parser requires every use of a value to have one type,
/// so a shape or element type changed everywhere gets past it to the
/// verifiers far more often than a single change.
void replaceOneOrAll(std::string &text, const std::vector<Span> &spans,
                     Span span, llvm::StringRef with, std::mt19937_64 &rng) {
  if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
    replace(text, span, with);
    return;
  }
  std::string old = text.substr(span.begin, span.end - span.begin);
  std::string replacement = with.str();
  for (auto it = spans.rbegin(); it != spans.rend(); ++it)
    if (text.compare(it->begin, it->end - it->begin, old) == 0)
      replace(text, *it, replacement);
}
} // namespace

bool tilekit::fuzz::mutateKernelText(std::string &text, KernelMutation kind,
                                     std::mt19937_64 &rng,
                                     llvm::ArrayRef<std::string> opNames) {
  static const std::vector<std::string> elementTypes = {
      "f16", "f32", "bf16", "i1", "i8", "i16", "i32", "i64", "index"};
  switch (kind) {
  case KernelMutation::Number: {
    std::vector<Span> numbers = findNumbers(text);
    if (numbers.empty())
      return false;
    Span span = pick(numbers, rng);
    replaceOneOrAll(
        text, numbers, span,
        mutateNumber(llvm::StringRef(text).slice(span.begin, span.end), rng),
        rng);
    return true;
  }
  case KernelMutation::OpName:
  case KernelMutation::ElementType:
  case KernelMutation::Word: {
    std::vector<Span> words = findWords(text);
    std::vector<Span> candidates;
    for (Span span : words) {
      llvm::StringRef word = llvm::StringRef(text).slice(span.begin, span.end);
      bool isOp = llvm::is_contained(opNames, word);
      bool isType = llvm::is_contained(elementTypes, word);
      if ((kind == KernelMutation::OpName && isOp) ||
          (kind == KernelMutation::ElementType && isType) ||
          (kind == KernelMutation::Word && !isOp && !isType))
        candidates.push_back(span);
    }
    if (candidates.empty())
      return false;
    Span span = pick(candidates, rng);
    std::string with;
    if (kind == KernelMutation::OpName) {
      // Stay in the op's dialect: other dialects' ops rarely parse there.
      llvm::StringRef old = llvm::StringRef(text).slice(span.begin, span.end);
      llvm::StringRef dialect = old.split('.').first;
      std::vector<std::string> same;
      for (const std::string &name : opNames)
        if (llvm::StringRef(name).split('.').first == dialect)
          same.push_back(name);
      with = pick(same, rng);
    } else if (kind == KernelMutation::ElementType) {
      replaceOneOrAll(text, candidates, span, pick(elementTypes, rng), rng);
      return true;
    } else {
      Span other = pick(words, rng);
      with = text.substr(other.begin, other.end - other.begin);
    }
    replace(text, span, with);
    return true;
  }
  case KernelMutation::Operand: {
    std::vector<Span> names = findValueNames(text);
    if (names.size() < 2)
      return false;
    Span span = pick(names, rng);
    Span other = pick(names, rng);
    replace(text, span, text.substr(other.begin, other.end - other.begin));
    return true;
  }
  case KernelMutation::Line: {
    std::vector<Span> lines;
    size_t begin = 0;
    for (size_t i = 0; i <= text.size(); ++i)
      if (i == text.size() || text[i] == '\n') {
        if (i > begin)
          lines.push_back({begin, std::min(i + 1, text.size())});
        begin = i + 1;
      }
    if (lines.empty())
      return false;
    Span line = pick(lines, rng);
    if (std::uniform_int_distribution<int>(0, 1)(rng))
      text.erase(line.begin, line.end - line.begin);
    else
      text.insert(line.begin, text.substr(line.begin, line.end - line.begin));
    return true;
  }
  }
  return false;
}
