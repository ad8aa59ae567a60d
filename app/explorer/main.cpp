// SPDX-License-Identifier: MIT
// flint-explorer: the interactive desktop explorer.
#include "app/explorer/mainwindow.h"
#include "app/explorer/session.h"

#include <cstdio>
#include <cstdlib>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

namespace {

/// True when a GUI can open a window here: a platform was chosen explicitly, or a display exists.
bool canShowWindows()
{
    return qEnvironmentVariableIsSet("QT_QPA_PLATFORM") || qEnvironmentVariableIsSet("DISPLAY") ||
           qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
}

} // namespace

int main(int argc, char** argv)
{
    if (!canShowWindows()) {
        const bool screenshot = [&] {
            for (int i = 1; i < argc; ++i)
                if (std::string_view(argv[i]).starts_with("--screenshot"))
                    return true;
            return false;
        }();
        if (!screenshot) {
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
    QApplication::setApplicationName(QStringLiteral("Flint Explorer"));
    QApplication::setOrganizationName(QStringLiteral("Flint Explorer"));
    QApplication::setApplicationVersion(QStringLiteral(FLINT_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Explore distributed ML workloads without a cluster."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("An XLA HLO module or a Chakra trace (file, prefix or folder). "
                                                "Default: the bundled Llama-3.1 70B training step."));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"), QStringLiteral("Render the window once the estimate is ready, save it and exit."),
        QStringLiteral("png"));
    const QCommandLineOption tabOption(QStringLiteral("tab"),
                                       QStringLiteral("Tab to show: timeline, communication or charts."),
                                       QStringLiteral("name"));
    parser.addOption(screenshotOption);
    parser.addOption(tabOption);
    parser.process(app);

    flint::app::MainWindow window;
    QString path = parser.positionalArguments().value(0);
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
    const QString tab = parser.value(tabOption).toLower();
    for (int i = 0; i < window.tabs()->count(); ++i)
        if (window.tabs()->tabText(i).toLower().startsWith(tab) && !tab.isEmpty())
            window.tabs()->setCurrentIndex(i);
    window.show();
    if (!path.isEmpty())
        window.openPath(path);

    if (parser.isSet(screenshotOption)) {
        const QString out = parser.value(screenshotOption);
        int status = 0;
        const auto save = [&window, &out, &status] {
            QApplication::processEvents();
            if (!window.grab().save(out)) {
                std::fprintf(stderr, "flint-explorer: cannot write %s\n", qPrintable(out));
                status = 3;
            } else {
                std::printf("flint-explorer: wrote %s\n", qPrintable(out));
            }
            QApplication::quit();
        };
        QObject::connect(&window.session(), &flint::app::Session::estimateAvailable, &window,
                         [save] { QTimer::singleShot(200, save); });
        QObject::connect(&window.session(), &flint::app::Session::failed, &window,
                         [&status](const QString& summary, const QString& details) {
                             std::fprintf(stderr, "flint-explorer: %s: %s\n", qPrintable(summary), qPrintable(details));
                             status = 2;
                             QApplication::quit();
                         });
        if (path.isEmpty())
            QTimer::singleShot(200, save);
        const int rc = app.exec();
        return status ? status : rc;
    }
    return app.exec();
}
