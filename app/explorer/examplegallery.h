// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>
#include <QVector>

QT_BEGIN_NAMESPACE
class QListWidget;
class QLabel;
QT_END_NAMESPACE

namespace flint::app {

/// One bundled example: what to open and what it is.
struct ExampleEntry {
    QString title;       ///< file or folder name
    QString path;        ///< absolute path to open (an HLO module, a Chakra trace folder)
    QString description; ///< from the examples' PROVENANCE.md ("what it is"), or the input kind
    QString source;      ///< where it comes from and its licence, from PROVENANCE.md
};

/// The bundled examples in `folder` (resources/examples or its installed copy): every HLO module in
/// its subfolders and every folder of Chakra rank files, described by the folder's PROVENANCE.md.
QVector<ExampleEntry> findExamples(const QString& folder);

/// A gallery of the bundled examples: a list with each one's description and source; Open (or a
/// double-click) accepts with the chosen path.
class ExampleGallery : public QDialog {
    Q_OBJECT

public:
    explicit ExampleGallery(QVector<ExampleEntry> examples, QWidget* parent = nullptr);
    /// The example chosen, or empty.
    QString chosenPath() const;

private:
    QVector<ExampleEntry> m_examples;
    QListWidget* m_list = nullptr;
    QLabel* m_about = nullptr;
};

} // namespace flint::app
