// SPDX-License-Identifier: MIT
#include "app/explorer/translations.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>

namespace flint::app {
namespace {

const QString kResourceFolder = QStringLiteral(":/i18n");
const QString kPrefix = QStringLiteral("flint-explorer_");

/// English plural forms for the source texts themselves: "(s)" and "(es)" become the plural ending
/// when the count is not 1 and vanish when it is. Qt substitutes %n afterwards, and leaves plural
/// forms to a translation, of which English, the source language, has none.
class EnglishPlurals final : public QTranslator {
public:
    using QTranslator::QTranslator;
    bool isEmpty() const override { return false; }
    QString translate(const char*, const char* source, const char*, int n) const override
    {
        if (n < 0 || !source)
            return {};
        QString text = QString::fromUtf8(source);
        if (!text.contains(QStringLiteral("(s)")) && !text.contains(QStringLiteral("(es)")))
            return {};
        const bool one = n == 1;
        text.replace(QStringLiteral("(es)"), one ? QString() : QStringLiteral("es"));
        text.replace(QStringLiteral("(s)"), one ? QString() : QStringLiteral("s"));
        return text;
    }
};

} // namespace

Translations::Translations(const QLocale& locale)
{
    const QStringList shipped = available();
    // uiLanguages() lists the user's languages, most preferred first ("de-DE", "de", "en-US", ...).
    // QTranslator::load(QLocale) would skip over a preferred English and pick a later language, so
    // walk the list ourselves and stop at English, the source language.
    for (QString ui : locale.uiLanguages()) {
        ui.replace(QLatin1Char('-'), QLatin1Char('_'));
        if (ui == QStringLiteral("C") || ui == QStringLiteral("en") || ui.startsWith(QStringLiteral("en_")))
            break;
        // "zh_Hans_CN" and "zh_CN" both mean the Simplified Chinese we ship as zh_CN; "de_AT" falls
        // back to "de". Try the full name, then drop the script, then keep the language alone.
        const QStringList parts = ui.split(QLatin1Char('_'));
        QStringList candidates{ui};
        if (parts.size() == 3)
            candidates << parts[0] + QLatin1Char('_') + parts[2];
        candidates << parts[0];
        for (const QString& candidate : candidates)
            if (shipped.contains(candidate)) {
                m_language = candidate;
                break;
            }
        if (!m_language.isEmpty())
            break;
    }
    // English, asked for or fallen back to: the source texts with their plural forms.
    const auto english = [this] {
        m_language.clear();
        m_englishPlurals = std::make_unique<EnglishPlurals>();
        QCoreApplication::installTranslator(m_englishPlurals.get());
    };
    if (m_language.isEmpty()) {
        english();
        return;
    }
    if (m_explorer.load(kPrefix + m_language, kResourceFolder))
        m_explorerInstalled = QCoreApplication::installTranslator(&m_explorer);
    if (m_qt.load(QStringLiteral("qtbase_") + m_language, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        m_qtInstalled = QCoreApplication::installTranslator(&m_qt);
    if (!m_explorerInstalled)
        english();
}

Translations::~Translations()
{
    if (m_englishPlurals)
        QCoreApplication::removeTranslator(m_englishPlurals.get());
    if (m_qtInstalled)
        QCoreApplication::removeTranslator(&m_qt);
    if (m_explorerInstalled)
        QCoreApplication::removeTranslator(&m_explorer);
}

QStringList Translations::available()
{
    QStringList languages;
    const QStringList files = QDir(kResourceFolder).entryList({kPrefix + QStringLiteral("*.qm")}, QDir::Files);
    for (const QString& file : files)
        languages << file.mid(kPrefix.size(), file.size() - kPrefix.size() - 3);
    return languages;
}

} // namespace flint::app
