/** Who is asking: the signed-in user as every service sees them, and an uploaded file as resolvers hand it on. */

export interface AuthInfo {
  userId: string;
  companyId: string;
  roles: string[];
  isCompanyAdmin: boolean;
  isSuperAdmin: boolean;
  /**
   * Set when the caller is an API key (services/developer/api-keys.ts): it acts as its company, within the key's scope.
   */
  apiKeyId?: string;
}

export interface FileUploadValue {
  filename: string;
  mimetype: string;
  createReadStream: () => NodeJS.ReadableStream;
}
