// SPDX-License-Identifier: MIT
// flint-explorer: the interactive desktop explorer.
#include "app/explorer/exportactions.h"
#include "app/explorer/mainwindow.h"
#include "app/explorer/session.h"
#include "app/explorer/translations.h"
#include "core/allocator.h"

#include <clocale>
#include <cstdio>
#include <cstdlib>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

namespace {

/// True when a GUI can open a window here: a platform was chosen explicitly, or a display exists.
bool canShowWindows()
{
    return qEnvironmentVariableIsSet("QT_QPA_PLATFORM") || qEnvironmentVariableIsSet("DISPLAY") ||
           qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
}

/// The value of `--lang CODE` or `--lang=CODE`, read before the parser runs: --help is translated.
QString languageArgument(const QStringList& arguments)
{
    const QString option = QStringLiteral("--lang");
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString& argument = arguments[i];
        if (argument == QStringLiteral("--"))
            break;
        if (argument == option && i + 1 < arguments.size())
            return arguments[i + 1];
        if (argument.startsWith(option + QLatin1Char('=')))
            return argument.mid(option.size() + 1);
    }
    return QString();
}

} // namespace

int main(int argc, char** argv)
{
    flint::core::useHugePageHeap(argv); // first: restarts the program when it applies
    if (!canShowWindows()) {
        // A screenshot, help and the version need no display: they run on the offscreen platform.
        const bool windowless = [&] {
            for (int i = 1; i < argc; ++i) {
                const std::string_view argument(argv[i]);
                if (argument == "--")
                    break;
                if (argument.starts_with("--screenshot") || argument == "--help" || argument == "-h" ||
                    argument == "--help-all" || argument == "--version" || argument == "-v")
                    return true;
            }
            return false;
        }();
        if (!windowless) {
            std::fputs("flint-explorer: no display found.\n"
                       "  Run it in a virtual display:     xvfb-run -a flint-explorer [FILE]\n"
                       "  or render one image and exit:   flint-explorer --screenshot out.png [FILE]\n"
                       "  or use the command line:        flint inspect|import|estimate ...\n",
                       stderr);
            return 2;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    // QApplication sets the C library's locale from the environment. Machine-readable text the
    // program writes with printf-style formatting (CSV and JSON exports, MLIR of the built-in models)
    // must keep the decimal point of the C locale whatever the user's language: numbers shown to
    // the user are formatted by QLocale instead.
    std::setlocale(LC_NUMERIC, "C");
    flint::core::retainFreedMemory(); // every edit re-estimates: keep the memory for the next one
    QApplication::setApplicationName(QStringLiteral("Flint Explorer"));
    QApplication::setOrganizationName(QStringLiteral("Flint Explorer"));
    QApplication::setApplicationVersion(QStringLiteral(FLINT_VERSION));

    const QString language = languageArgument(QCoreApplication::arguments());
    if (!language.isEmpty())
        QLocale::setDefault(QLocale(language));
    const flint::app::Translations translations(language.isEmpty() ? QLocale::system() : QLocale(language));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Explore distributed ML workloads without a cluster."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QCoreApplication::translate("main", "An XLA HLO or MLIR module, a Chakra trace (file, prefix or folder), a "
                                            "measured profile (PyTorch or JAX) or a model file. Default: the built-in "
                                            "GPT-3 175B on 1,024 H100s."));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("main", "Render the window once the estimate is ready, save it and exit."),
        QStringLiteral("png"));
    const QCommandLineOption indexedOption(
        QStringLiteral("indexed"),
        QCoreApplication::translate("main", "With --screenshot: save the picture with a palette of its 256 most "
                                            "frequent colours (less than half the bytes; the pictures in docs)."));
    const QCommandLineOption tabOption(
        QStringLiteral("tab"),
        QCoreApplication::translate(
            "main", "Tab to show: graph, timeline, communication, charts, ops, validation or sweep (English "
                    "names, also under other languages; a unique prefix will do)."),
        QStringLiteral("name"));
    const QCommandLineOption langOption(
        QStringLiteral("lang"),
        QCoreApplication::translate("main", "User interface language instead of the system's: %1 or en.")
            .arg(flint::app::Translations::available().join(QStringLiteral(", "))),
        QStringLiteral("code"));
    const QCommandLineOption measuredOption(
        QStringLiteral("measured"),
        QCoreApplication::translate("main", "Compare the estimate with this measured run (a PyTorch or XLA/JAX "
                                            "profiler trace, a folder of one per rank, or a Chakra trace with "
                                            "recorded times) in the Validation tab."),
        QStringLiteral("profile"));
    parser.addOption(measuredOption);
    parser.addOption(screenshotOption);
    parser.addOption(indexedOption);
    parser.addOption(tabOption);
    parser.addOption(langOption);
    parser.process(app);
    if (!language.isEmpty() && translations.language().isEmpty() && !language.startsWith(QStringLiteral("en")))
        std::fprintf(stderr, "flint-explorer: no translation for '%s', using English\n", qPrintable(language));

    const bool screenshot = parser.isSet(screenshotOption);
    QTemporaryDir screenshotSettings;
    if (screenshot && screenshotSettings.isValid()) {
        // A picture from the default window and panels, whatever an interactive session saved, and
        // nothing saved back.
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, screenshotSettings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, screenshotSettings.path());
    }
    flint::app::MainWindow window;
    window.setBatchMode(screenshot);
    QString path = parser.positionalArguments().value(0);
#if !defined(FLINT_HAVE_MODELS)
    // Without the MLIR frontend there are no built-in models: open a bundled example instead.
    if (path.isEmpty()) {
        for (const QString& folder : flint::app::MainWindow::exampleFolders()) {
            const QString candidate =
                QDir(folder).absoluteFilePath(QStringLiteral("hlo/llama31_70b_train_step_128_devices.hlo"));
            if (QFileInfo::exists(candidate)) {
                path = candidate;
                break;
            }
        }
    }
#endif
    if (parser.isSet(tabOption)) {
        const QString tab = parser.value(tabOption).toLower();
        QStringList names;
        QList<int> matches;
        for (int i = 0; i < window.tabs()->count(); ++i) {
            names << window.tabs()->widget(i)->objectName();
            if (!tab.isEmpty() && names.back().startsWith(tab))
                matches << i;
        }
        if (matches.size() != 1) {
            std::fprintf(stderr, "flint-explorer: --tab '%s' %s; the tabs are %s\n", qPrintable(tab),
                         matches.isEmpty() ? "names no tab" : "is ambiguous",
                         qPrintable(names.join(QStringLiteral(", "))));
            return 2;
        }
        window.tabs()->setCurrentIndex(matches.front());
    }
    window.show();
    if (parser.isSet(measuredOption) && parser.isSet(tabOption))
        window.session().compareWithMeasured(parser.value(measuredOption)); // stay on the tab asked for
    else if (parser.isSet(measuredOption))
        window.compareWithMeasured(parser.value(measuredOption)); // and show the Validation tab
    if (!path.isEmpty()) {
        if (!window.openPath(path) && screenshot)
            return 2; // refused at once; the reason is on stderr
    }
#if defined(FLINT_HAVE_MODELS)
    else {
        window.openDefaultModel(); // GPT-3 175B on 1,024 H100s
    }
#endif

    if (parser.isSet(screenshotOption)) {
        const QString out = parser.value(screenshotOption);
        int status = 0;
        const bool indexed = parser.isSet(indexedOption);
        const auto save = [&window, &out, &status, indexed] {
            QApplication::processEvents();
            const QImage picture = window.grab().toImage();
            if (!(indexed ? flint::app::ExportActions::withPalette(picture) : picture).save(out)) {
                std::fprintf(stderr, "flint-explorer: cannot write %s\n", qPrintable(out));
                status = 3;
            } else {
                std::printf("flint-explorer: wrote %s\n", qPrintable(out));
            }
            QApplication::quit();
        };
        // The graph is laid out on a worker after the estimate: a picture of the Graph tab waits for
        // its layout, not for "laying out…".
        const auto saveWhenDrawn = [&window, save] { window.whenDrawn(save); };
        // With a measured run, the picture is of the comparison; else of the estimate.
        if (parser.isSet(measuredOption))
            QObject::connect(&window.session(), &flint::app::Session::validationAvailable, &window,
                             [saveWhenDrawn] { QTimer::singleShot(200, saveWhenDrawn); });
        else
            QObject::connect(&window.session(), &flint::app::Session::estimateAvailable, &window,
                             [saveWhenDrawn] { QTimer::singleShot(200, saveWhenDrawn); });
        QObject::connect(&window.session(), &flint::app::Session::failed, &window, [&status] {
            // MainWindow::showError has printed the reason (batch mode).
            status = 2;
            QApplication::quit();
        });
#if !defined(FLINT_HAVE_MODELS)
        if (path.isEmpty())
            QTimer::singleShot(200, save); // nothing to wait for
#endif
        const int rc = app.exec();
        return status ? status : rc;
    }
    return app.exec();
}
