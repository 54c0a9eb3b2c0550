/** The signed-in user as GET /api/user, POST /api/login and POST /api/register return it. */
export interface SessionUser {
  id: string;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

export interface MessageResponse {
  message: string;
}
