// SPDX-License-Identifier: MIT
// The explorer's translations: the committed .ts files are complete and keep every placeholder,
// they hold exactly the strings lupdate finds in the code today, and the real window shows them.
#include "app/explorer/mainwindow.h"
#include "app/explorer/session.h"
#include "app/explorer/stepsummary.h"
#include "app/explorer/translations.h"
#include "core/hlo/hloimport.h"
#include "core/hlo/hloparser.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace flint;

namespace {

const QString kTranslations = QStringLiteral(FLINT_SOURCE_DIR "/translations");

struct Message {
    QString context, source, comment;
    bool numerus = false;
    QString type;             ///< the translation's type attribute: "", "unfinished", "vanished", "obsolete"
    QStringList translations; ///< one entry, or one per numerus form
    QString key() const { return context + QStringLiteral(" | ") + source + QStringLiteral(" | ") + comment; }
};

struct TsFile {
    QString language;
    QVector<Message> messages;
    QString error;
};

TsFile readTs(const QString& path)
{
    TsFile ts;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ts.error = QStringLiteral("cannot open ") + path;
        return ts;
    }
    QXmlStreamReader xml(&file);
    QString context;
    Message message;
    bool inMessage = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QStringLiteral("TS")) {
                ts.language = xml.attributes().value(QStringLiteral("language")).toString();
            } else if (name == QStringLiteral("name") && !inMessage) {
                context = xml.readElementText();
            } else if (name == QStringLiteral("message")) {
                inMessage = true;
                message = Message{context, {}, {}, xml.attributes().value(QStringLiteral("numerus")) == u"yes", {}, {}};
            } else if (name == QStringLiteral("source")) {
                message.source = xml.readElementText();
            } else if (name == QStringLiteral("comment")) {
                message.comment = xml.readElementText();
            } else if (name == QStringLiteral("translation")) {
                message.type = xml.attributes().value(QStringLiteral("type")).toString();
                if (!message.numerus)
                    message.translations << xml.readElementText();
            } else if (name == QStringLiteral("numerusform")) {
                message.translations << xml.readElementText();
            }
        } else if (xml.isEndElement() && xml.name() == QStringLiteral("message")) {
            inMessage = false;
            ts.messages.push_back(message);
        }
    }
    if (xml.hasError())
        ts.error = path + QStringLiteral(": ") + xml.errorString();
    return ts;
}

/// "%1", "%2", "%n" (and "%L1") in `text`, sorted, with repeats.
QStringList placeholders(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("%L?([0-9]{1,2}|n)"));
    QStringList found;
    for (auto it = pattern.globalMatch(text); it.hasNext();)
        found << it.next().captured(0);
    found.sort();
    return found;
}

/// The HTML tags of a rich-text message ("<b>", "</b>", "<br>"), sorted.
QStringList tags(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("<[^<>]+>"));
    QStringList found;
    for (auto it = pattern.globalMatch(text); it.hasNext();)
        found << it.next().captured(0);
    found.sort();
    return found;
}

/// How many '&' accelerators `text` has ("&&" is a literal ampersand).
int accelerators(QString text)
{
    text.remove(QStringLiteral("&&"));
    int count = 0;
    for (qsizetype i = 0; i + 1 < text.size(); ++i)
        if (text[i] == QLatin1Char('&') && !text[i + 1].isSpace())
            ++count;
    return count;
}

/// The accelerator key of a menu text, lower case; null when it has none.
QChar acceleratorOf(QString text)
{
    text.remove(QStringLiteral("&&"));
    const qsizetype at = text.indexOf(QLatin1Char('&'));
    return at >= 0 && at + 1 < text.size() ? text[at + 1].toLower() : QChar();
}

/// Numerus forms that Qt's plural rules give each shipped language.
int numerusForms(const QString& language)
{
    if (language.startsWith(QStringLiteral("zh")))
        return 1;
    if (language.startsWith(QStringLiteral("de")))
        return 2;
    return -1; // a new language: any non-empty set of forms
}

QStringList committedTsFiles()
{
    const QDir dir(kTranslations);
    QStringList paths;
    for (const QString& name : dir.entryList({QStringLiteral("flint-explorer_*.ts")}, QDir::Files, QDir::Name))
        paths << dir.absoluteFilePath(name);
    return paths;
}

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void tsFilesAreComplete_data();
    void tsFilesAreComplete();
    void tsFilesMatchTheSources();
    void languageFromLocale_data();
    void languageFromLocale();
    void windowIsTranslated_data();
    void windowIsTranslated();
    void englishCountsTakeTheirPlural();
    void readerMessagesAreTranslated();
    void windowFitsASmallScreen_data();
    void windowFitsASmallScreen();
};

void TestTranslations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // MainWindow's QSettings go to a throwaway place
    const QStringList files = committedTsFiles();
    QVERIFY2(files.contains(kTranslations + QStringLiteral("/flint-explorer_de.ts")), "German .ts missing");
    QVERIFY2(files.contains(kTranslations + QStringLiteral("/flint-explorer_zh_CN.ts")), "Chinese .ts missing");
}

void TestTranslations::tsFilesAreComplete_data()
{
    QTest::addColumn<QString>("path");
    for (const QString& path : committedTsFiles())
        QTest::newRow(qPrintable(QFileInfo(path).completeBaseName())) << path;
}

void TestTranslations::tsFilesAreComplete()
{
    QFETCH(QString, path);
    const TsFile ts = readTs(path);
    QVERIFY2(ts.error.isEmpty(), qPrintable(ts.error));
    QVERIFY(ts.messages.size() > 100);
    const int forms = numerusForms(ts.language);
    QStringList problems;
    for (const Message& m : ts.messages) {
        const QString where = m.context + QStringLiteral(": \"") + m.source + QStringLiteral("\": ");
        if (!m.type.isEmpty()) {
            problems << where + m.type;
            continue;
        }
        if (m.translations.isEmpty() || (m.numerus && forms > 0 && m.translations.size() != forms)) {
            problems << where + QStringLiteral("%1 numerus forms, expected %2").arg(m.translations.size()).arg(forms);
            continue;
        }
        for (const QString& translation : m.translations) {
            if (translation.trimmed().isEmpty())
                problems << where + QStringLiteral("empty translation");
            else if (placeholders(translation) != placeholders(m.source))
                problems << where + QStringLiteral("placeholders %1 in \"%2\"")
                                        .arg(placeholders(translation).join(QLatin1Char(',')), translation);
            else if (tags(translation) != tags(m.source))
                problems << where + QStringLiteral("HTML tags differ in \"%1\"").arg(translation);
            else if (accelerators(translation) != accelerators(m.source))
                problems << where + QStringLiteral("accelerators differ in \"%1\"").arg(translation);
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestTranslations::tsFilesMatchTheSources()
{
    // lupdate, with the options and sources of the build's update_translations, into a fresh file.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fresh = dir.filePath(QStringLiteral("fresh.ts"));
    QProcess lupdate;
    lupdate.setProcessChannelMode(QProcess::MergedChannels);
    lupdate.start(QStringLiteral(FLINT_LUPDATE),
                  {QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-no-obsolete"),
                   QStringLiteral("-source-language"), QStringLiteral("en"), QStringLiteral("-tr-function-alias"),
                   QStringLiteral("QT_TRANSLATE_NOOP+=FLINT_TRANSLATE_NOOP"),
                   QStringLiteral("@") + QStringLiteral(FLINT_LUPDATE_LIST), QStringLiteral("-ts"), fresh});
    QVERIFY2(lupdate.waitForFinished(120000), "lupdate did not finish");
    const QString log = QString::fromLocal8Bit(lupdate.readAll());
    QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0, qPrintable(log));
    const TsFile code = readTs(fresh);
    QVERIFY2(code.error.isEmpty(), qPrintable(code.error + QLatin1Char('\n') + log));
    QVERIFY(code.messages.size() > 100);
    QSet<QString> inCode;
    for (const Message& m : code.messages)
        inCode.insert(m.key());

    for (const QString& path : committedTsFiles()) {
        QSet<QString> committed;
        for (const Message& m : readTs(path).messages)
            committed.insert(m.key());
        QStringList missing, stale;
        for (const QString& key : inCode)
            if (!committed.contains(key))
                missing << key;
        for (const QString& key : committed)
            if (!inCode.contains(key))
                stale << key;
        missing.sort();
        stale.sort();
        const QString hint = QStringLiteral("\nRun `cmake --build --preset dev --target update_translations`, "
                                            "then translate (translations/README.md).");
        QVERIFY2(missing.isEmpty(), qPrintable(QFileInfo(path).fileName() + QStringLiteral(" lacks:\n") +
                                               missing.join(QLatin1Char('\n')) + hint));
        QVERIFY2(stale.isEmpty(),
                 qPrintable(QFileInfo(path).fileName() + QStringLiteral(" has strings no code uses:\n") +
                            stale.join(QLatin1Char('\n')) + hint));
    }
}

void TestTranslations::languageFromLocale_data()
{
    QTest::addColumn<QLocale>("locale");
    QTest::addColumn<QString>("language");
    QTest::newRow("de") << QLocale(QStringLiteral("de")) << QStringLiteral("de");
    QTest::newRow("de_AT_falls_back_to_de") << QLocale(QStringLiteral("de_AT")) << QStringLiteral("de");
    QTest::newRow("zh_CN") << QLocale(QStringLiteral("zh_CN")) << QStringLiteral("zh_CN");
    QTest::newRow("zh_Hans_CN") << QLocale(QLocale::Chinese, QLocale::SimplifiedHanScript, QLocale::China)
                                << QStringLiteral("zh_CN");
    QTest::newRow("zh_TW_is_not_simplified") << QLocale(QStringLiteral("zh_TW")) << QString();
    QTest::newRow("en_US_is_the_source") << QLocale(QStringLiteral("en_US")) << QString();
    QTest::newRow("fr_is_not_shipped") << QLocale(QStringLiteral("fr_FR")) << QString();
}

void TestTranslations::languageFromLocale()
{
    QFETCH(QLocale, locale);
    QFETCH(QString, language);
    QCOMPARE(app::Translations::available(), (QStringList{QStringLiteral("de"), QStringLiteral("zh_CN")}));
    const app::Translations translations(locale);
    QCOMPARE(translations.language(), language);
}

void TestTranslations::windowIsTranslated_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QStringList>("menus");
    QTest::addColumn<QStringList>("tabs");
    QTest::addColumn<QString>("open");
    QTest::newRow("de") << QStringLiteral("de")
                        << QStringList{QStringLiteral("&Datei"), QStringLiteral("&Bearbeiten"),
                                       QStringLiteral("&Ansicht"), QStringLiteral("&Hilfe")}
                        << QStringList{QStringLiteral("Graph"),         QStringLiteral("Zeitachse"),
                                       QStringLiteral("Kommunikation"), QStringLiteral("Diagramme"),
                                       QStringLiteral("Ops"),           QStringLiteral("Validierung"),
                                       QStringLiteral("Sweep")}
                        << QStringLiteral("&Öffnen…");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN")
                           << QStringList{QStringLiteral("文件(&F)"), QStringLiteral("编辑(&E)"),
                                          QStringLiteral("视图(&V)"), QStringLiteral("帮助(&H)")}
                           << QStringList{QStringLiteral("计算图"), QStringLiteral("时间线"), QStringLiteral("通信"),
                                          QStringLiteral("图表"),   QStringLiteral("算子"),   QStringLiteral("验证"),
                                          QStringLiteral("扫描")}
                           << QStringLiteral("打开(&O)…");
}

void TestTranslations::windowIsTranslated()
{
    QFETCH(QString, language);
    QFETCH(QStringList, menus);
    QFETCH(QStringList, tabs);
    QFETCH(QString, open);
    {
        const app::Translations translations{QLocale(language)};
        QCOMPARE(translations.language(), language);
        app::MainWindow window;
        QStringList menuTitles;
        for (QAction* action : window.menuBar()->actions())
            menuTitles << action->text();
        QCOMPARE(menuTitles, menus);
        QStringList tabTitles;
        QStringList tabNames;
        for (int i = 0; i < window.tabs()->count(); ++i) {
            tabTitles << window.tabs()->tabText(i);
            tabNames << window.tabs()->widget(i)->objectName();
        }
        QCOMPARE(tabTitles, tabs);
        // --tab matches these, whatever the language.
        QCOMPARE(tabNames, (QStringList{QStringLiteral("graph"), QStringLiteral("timeline"),
                                        QStringLiteral("communication"), QStringLiteral("charts"),
                                        QStringLiteral("ops"), QStringLiteral("validation"), QStringLiteral("sweep")}));
        QMenu* file = window.menuBar()->actions().value(0)->menu();
        QVERIFY(file);
        QCOMPARE(file->actions().value(0)->text(), open);
        // Each menu's accelerators stay unique in the translation, and the menu bar's too.
        QList<QMenu*> all{window.menuBar()->findChildren<QMenu*>()};
        QStringList clashes;
        const auto checkUnique = [&clashes](const QString& where, const QList<QAction*>& actions) {
            QHash<QChar, QString> seen;
            for (const QAction* action : actions) {
                const QChar key = acceleratorOf(action->text());
                if (key.isNull())
                    continue;
                if (seen.contains(key))
                    clashes << where + QStringLiteral(": ") + seen[key] + QStringLiteral(" / ") + action->text();
                seen.insert(key, action->text());
            }
        };
        checkUnique(QStringLiteral("menu bar"), window.menuBar()->actions());
        for (const QMenu* menu : all)
            checkUnique(menu->title(), menu->actions());
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    }
    // The translators are gone with their owner: a new window is English again.
    app::MainWindow english;
    QCOMPARE(english.menuBar()->actions().value(0)->text(), QStringLiteral("&File"));
    QCOMPARE(english.tabs()->tabText(1), QStringLiteral("Timeline"));
}

void TestTranslations::englishCountsTakeTheirPlural()
{
    // Qt leaves "%n rank(s)" to a translation; in English, the source language, the explorer makes
    // the plural itself.
    const app::Translations english{QLocale(QLocale::English)};
    QCOMPARE(english.language(), QString());
    const auto say = [](const char* text, int n) { return QCoreApplication::translate("ctx", text, nullptr, n); };
    QCOMPARE(say("%n rank(s)", 1), QStringLiteral("1 rank"));
    QCOMPARE(say("%n rank(s)", 1024), QStringLiteral("1024 ranks"));
    QCOMPARE(say("%Ln microbatch(es) of %1", 96), QStringLiteral("96 microbatches of %1"));
    QCOMPARE(say("%Ln microbatch(es) of %1", 1), QStringLiteral("1 microbatch of %1"));
    QCOMPARE(say("Open a file", -1), QStringLiteral("Open a file"));
}

void TestTranslations::readerMessagesAreTranslated()
{
    // A reader's warning, as an HLO import makes it (core::Message): English on the command line,
    // the user's language in the explorer, with the same arguments; a verbatim one stays as it is.
    const core::hlo::HloImport imported = core::hlo::importHloModule(core::hlo::parseHlo(
        "HloModule m\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\n"
        "ENTRY e {\n  p = f32[8] parameter(0)\n  ROOT ar = f32[8] all-reduce(p), channel_id=1, "
        "replica_groups={{0,1,2,3,4,5,6,7}}, use_global_device_ids=true, to_apply=add\n}\n",
        "np.hlo"));
    QVERIFY(!imported.warnings.empty());
    const core::Message& warning = imported.warnings.front();
    QVERIFY2(warning.text().starts_with("the module declares no num_partitions; 8 partitions"), warning.text().c_str());
    {
        const app::Translations german{QLocale(QStringLiteral("de"))};
        const QString shown = app::StepSummary::translated(warning);
        QVERIFY2(shown.startsWith(QStringLiteral("das Modul gibt keine num_partitions an; 8 Partitionen")),
                 qPrintable(shown));
        // A prefix (the generated block a warning came from) stays in front, untranslated.
        QVERIFY(app::StepSummary::translated(warning.prefixed("attention: "))
                    .startsWith(QStringLiteral("attention: das Modul")));
        QCOMPARE(app::StepSummary::translated(core::Message::verbatim("as it is")), QStringLiteral("as it is"));
        // Arguments that are numbers follow the locale (main() sets it with the language); names and
        // step markers stay as they are.
        const QLocale previous;
        QLocale::setDefault(QLocale(QStringLiteral("de")));
        const core::Message note(FLINT_TRANSLATE_NOOP("Diagnostics", "%1, %2 ranks, %4: measured step %3"),
                                 {"PyTorch profiler", "3200", "71.409 ms", "ProfilerStep#3"});
        QCOMPARE(app::StepSummary::translated(note),
                 QStringLiteral("PyTorch profiler, 3.200 Ränge, ProfilerStep#3: gemessener Schritt 71,409\u00a0ms"));
        QLocale::setDefault(previous);
    }
    QCOMPARE(app::StepSummary::translated(warning), QString::fromStdString(warning.text()));
}

void TestTranslations::windowFitsASmallScreen_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QString();
    QTest::newRow("de") << QStringLiteral("de");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

void TestTranslations::windowFitsASmallScreen()
{
    // The explorer opens at 1,280 x 820 and must be able to: no panel's labels may push the
    // window's minimum width beyond a small laptop screen, in any language, with the default model
    // estimated and every panel filled.
    QFETCH(QString, language);
    const app::Translations translations{language.isEmpty() ? QLocale(QLocale::English) : QLocale(language)};
    app::MainWindow window;
    window.show();
    QSignalSpy estimated(&window.session(), &app::Session::estimateAvailable);
    window.openDefaultModel();
    QVERIFY(estimated.wait(60000));
    QStringList widths;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        widths << dock->objectName() + QStringLiteral(" ") + QString::number(dock->minimumSizeHint().width());
    widths << QStringLiteral("central ") + QString::number(window.centralWidget()->minimumSizeHint().width());
    for (int i = 0; i < window.tabs()->count(); ++i)
        widths << window.tabs()->widget(i)->objectName() + QStringLiteral(" ") +
                      QString::number(window.tabs()->widget(i)->minimumSizeHint().width());
    const int minimum = window.minimumSizeHint().width();
    QVERIFY2(minimum <= 1280,
             qPrintable(QString::number(minimum) + QStringLiteral(": ") + widths.join(QStringLiteral(", "))));
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
