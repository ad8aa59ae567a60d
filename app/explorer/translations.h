// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include <QLocale>
#include <QString>
#include <QTranslator>

namespace flint::app {

/// The explorer's translators for one locale, installed while this object lives: ours from the
/// resources embedded at build time (":/i18n/flint-explorer_<lang>.qm") and Qt's own qtbase
/// strings (dialog buttons, --help) from QLibraryInfo's translations folder when that file exists.
/// English is the source language: a locale whose preferred UI language is English loads no file,
/// only the English plural forms of the counted texts ("%n rank(s)" -> "1 rank", "8 ranks"), which
/// Qt leaves to a translation. Construct on the GUI thread after the QCoreApplication.
class Translations {
public:
    explicit Translations(const QLocale& locale);
    ~Translations();
    Translations(const Translations&) = delete;
    Translations& operator=(const Translations&) = delete;

    /// The language of the explorer's translation ("de", "zh_CN"), or empty for English.
    QString language() const { return m_language; }
    /// True when Qt's qtbase translation for that language was found and installed too.
    bool hasQtTranslation() const { return m_qtInstalled; }

    /// The languages this build ships, as file suffixes ("de", "zh_CN"), from the resources.
    static QStringList available();

private:
    std::unique_ptr<QTranslator> m_englishPlurals;
    QTranslator m_explorer;
    QTranslator m_qt;
    QString m_language;
    bool m_explorerInstalled = false;
    bool m_qtInstalled = false;
};

} // namespace flint::app
