/**
 * Uploads one file to POST /api/images with XMLHttpRequest, the one browser API that reports
 * upload progress. Resolves with the stored image's URL; rejects on any failure.
 */
export function uploadImageWithProgress(file: File, onProgress: (percent: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/images');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = xhr.response as { success?: boolean; data?: { url?: string }; message?: string } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.success && body.data?.url) {
        onProgress(100);
        resolve(body.data.url);
      } else {
        reject(new Error(body?.message ?? `upload failed with ${xhr.status}`));
      }
    };
    xhr.onerror = () => reject(new Error('network error'));
    const form = new FormData();
    form.append('image', file);
    xhr.send(form);
  });
}
