import { blobStoreOrigin, type BlobStoreSettings } from './blob-store-factory';

// The web app's CSP allows exactly the origin presigned URLs point at.
describe('blobStoreOrigin', () => {
  const s3 = (over: Partial<Extract<BlobStoreSettings, { driver: 's3' }>>): BlobStoreSettings => ({
    driver: 's3',
    bucket: 'csvm-files',
    region: 'eu-west-2',
    forcePathStyle: false,
    sse: 'AES256',
    keyPrefix: 'csvm/',
    ...over,
  });

  it('is null when files stay in memory', () => {
    expect(blobStoreOrigin({ driver: 'memory' })).toBeNull();
  });

  it("is AWS's virtual-hosted bucket origin by default, the regional one with path style", () => {
    expect(blobStoreOrigin(s3({}))).toBe('https://csvm-files.s3.eu-west-2.amazonaws.com');
    expect(blobStoreOrigin(s3({ forcePathStyle: true }))).toBe('https://s3.eu-west-2.amazonaws.com');
  });

  it('follows the public endpoint before the servers’ one', () => {
    expect(blobStoreOrigin(s3({ endpoint: 'http://minio:9000', forcePathStyle: true }))).toBe(
      'http://minio:9000',
    );
    expect(
      blobStoreOrigin(
        s3({ endpoint: 'http://minio:9000', publicEndpoint: 'http://localhost:9000/', forcePathStyle: true }),
      ),
    ).toBe('http://localhost:9000');
  });
});
