/** Who is asking: the signed-in user as every service sees them, and an uploaded file as resolvers hand it on. */

export interface AuthInfo {
  userId: string;
  companyId: string;
  roles: string[];
  isCompanyAdmin: boolean;
  isSuperAdmin: boolean;
}

export interface FileUploadValue {
  filename: string;
  mimetype: string;
  createReadStream: () => NodeJS.ReadableStream;
}
