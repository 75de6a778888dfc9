#include "forge/table/csv.hpp"

#include <algorithm>
#include <string>

#include "forge/table/kernel_table.hpp"

namespace forge {

namespace {

constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

}  // namespace

std::string_view strip_utf8_bom(std::string_view text) noexcept {
    if (text.starts_with(utf8_bom)) {
        text.remove_prefix(utf8_bom.size());
    }
    return text;
}

bool CsvRecord::blank() const noexcept { return fields.size() == 1 && fields.front().empty(); }

std::string_view CsvRecord::field(std::size_t index) const noexcept {
    return index < fields.size() ? fields[index] : std::string_view{};
}

CsvReader::CsvReader(std::string_view text, std::string file_label, std::size_t first_line)
    : text_(strip_utf8_bom(text)), file_label_(std::move(file_label)), line_(first_line) {}

bool CsvReader::next(CsvRecord& record) {
    record.fields.clear();
    record.line = line_;
    unescaped_.clear();
    unescaped_fields_.clear();
    if (pos_ >= text_.size()) {
        return false;
    }
    for (;;) {
        if (pos_ < text_.size() && text_[pos_] == '"') {
            read_quoted(record.fields.size(), record);
        } else {
            read_unquoted(record);
        }
        // pos_ is now on the delimiter, a line end, or the end of the text.
        if (pos_ < text_.size() && text_[pos_] == ',') {
            ++pos_;
            continue;
        }
        // At a line end or the end of the text.
        pos_ += pos_ < text_.size() && text_[pos_] == '\r' ? 2 : 1;
        pos_ = std::min(pos_, text_.size());
        ++line_;
        break;
    }
    // Views into unescaped_ are taken only now: appending may have moved its buffer.
    for (const auto& [index, offset] : unescaped_fields_) {
        const std::size_t length = record.fields[index].size();
        record.fields[index] = std::string_view(unescaped_).substr(offset, length);
    }
    return true;
}

// "\n" or "\r\n" (or a '\r' that ends the text); a lone '\r' is data.
bool CsvReader::at_line_end() const noexcept {
    const char c = text_[pos_];
    return c == '\n' || (c == '\r' && (pos_ + 1 == text_.size() || text_[pos_ + 1] == '\n'));
}

void CsvReader::read_unquoted(CsvRecord& record) {
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && text_[pos_] != ',' && !at_line_end()) {
        ++pos_;
    }
    record.fields.push_back(text_.substr(begin, pos_ - begin));
}

void CsvReader::read_quoted(std::size_t field_index, CsvRecord& record) {
    const std::size_t open_line = line_;
    ++pos_;  // the opening quote
    const std::size_t begin = pos_;
    bool doubled = false;
    std::size_t offset = 0;
    for (;;) {
        const std::size_t quote = text_.find('"', pos_);
        if (quote == std::string_view::npos) {
            throw TableError(file_label_ + ":" + std::to_string(open_line) +
                             ": a quoted field opened on this line is never closed (the file ends "
                             "inside it); the file is probably truncated: export it again");
        }
        for (std::size_t i = pos_; i < quote; ++i) {
            if (text_[i] == '\n') {
                ++line_;
            }
        }
        if (quote + 1 < text_.size() && text_[quote + 1] == '"') {
            // A doubled quote: one literal quote. Gather the field's text in unescaped_.
            if (!doubled) {
                doubled = true;
                offset = unescaped_.size();
                unescaped_.append(text_.substr(begin, quote + 1 - begin));
            } else {
                unescaped_.append(text_.substr(pos_, quote + 1 - pos_));
            }
            pos_ = quote + 2;
            continue;
        }
        if (doubled) {
            unescaped_.append(text_.substr(pos_, quote - pos_));
            record.fields.emplace_back(unescaped_.data(), unescaped_.size() - offset);
            unescaped_fields_.emplace_back(field_index, offset);
        } else {
            record.fields.push_back(text_.substr(begin, quote - begin));
        }
        pos_ = quote + 1;
        break;
    }
    // Spaces after the closing quote are tolerated; anything else is not CSV.
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) {
        ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] != ',' && !at_line_end()) {
        throw TableError(file_label_ + ":" + std::to_string(line_) +
                         ": text follows a closing quote in field " + std::to_string(field_index + 1) +
                         "; a quote inside a quoted field must be doubled (\"\")");
    }
}

bool LineCursor::next(TextLine& line) noexcept {
    if (pos_ >= text_.size()) {
        return false;
    }
    std::size_t end = text_.find('\n', pos_);
    const std::size_t next_pos = end == std::string_view::npos ? text_.size() : end + 1;
    if (end == std::string_view::npos) {
        end = text_.size();
    }
    std::size_t content_end = end;
    if (content_end > pos_ && text_[content_end - 1] == '\r') {
        --content_end;
    }
    line.text = text_.substr(pos_, content_end - pos_);
    line.number = ++number_;
    pos_ = next_pos;
    return true;
}

}  // namespace forge
