import ClientKit

extension MediaFile {
    /// The multipart part for this file under `partName`.
    func upload(partName: String) -> Upload {
        Upload(partName: partName, fileName: fileName, contentType: contentType, data: data)
    }
}
