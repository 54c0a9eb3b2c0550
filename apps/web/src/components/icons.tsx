// Line icons drawn inline (no icon package in the stack). Paths follow the Lucide set (ISC licence).
import { Icon, type IconProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

function makeIcon(displayName: string, paths: ReactNode) {
  function LineIcon(props: IconProps) {
    return (
      <Icon {...props} asChild>
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
        >
          {paths}
        </svg>
      </Icon>
    );
  }
  LineIcon.displayName = displayName;
  return LineIcon;
}

export const MenuIcon = makeIcon('MenuIcon', <path d="M4 6h16M4 12h16M4 18h16" />);
export const EyeIcon = makeIcon(
  'EyeIcon',
  <>
    <path d="M2 12s3-7 10-7 10 7 10 7-3 7-10 7-10-7-10-7Z" />
    <circle cx="12" cy="12" r="3" />
  </>,
);
export const EyeOffIcon = makeIcon(
  'EyeOffIcon',
  <>
    <path d="M9.88 9.88a3 3 0 1 0 4.24 4.24" />
    <path d="M10.73 5.08A10.43 10.43 0 0 1 12 5c7 0 10 7 10 7a13.16 13.16 0 0 1-1.67 2.68" />
    <path d="M6.61 6.61A13.53 13.53 0 0 0 2 12s3 7 10 7a9.74 9.74 0 0 0 5.39-1.61" />
    <path d="M2 2l20 20" />
  </>,
);
export const CheckIcon = makeIcon('CheckIcon', <path d="M20 6 9 17l-5-5" />);
export const XIcon = makeIcon('XIcon', <path d="M18 6 6 18M6 6l12 12" />);
export const CircleCheckIcon = makeIcon(
  'CircleCheckIcon',
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="m9 12 2 2 4-4" />
  </>,
);
export const UploadIcon = makeIcon(
  'UploadIcon',
  <>
    <path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4" />
    <path d="M17 8l-5-5-5 5M12 3v12" />
  </>,
);
export const DownloadIcon = makeIcon(
  'DownloadIcon',
  <>
    <path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4" />
    <path d="M7 10l5 5 5-5M12 15V3" />
  </>,
);
export const FileTextIcon = makeIcon(
  'FileTextIcon',
  <>
    <path d="M14.5 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V7.5L14.5 2z" />
    <path d="M14 2v6h6M16 13H8M16 17H8" />
  </>,
);
export const ArrowLeftIcon = makeIcon('ArrowLeftIcon', <path d="m12 19-7-7 7-7M19 12H5" />);
export const ArrowRightIcon = makeIcon('ArrowRightIcon', <path d="M5 12h14M12 5l7 7-7 7" />);
export const ArrowLeftRightIcon = makeIcon(
  'ArrowLeftRightIcon',
  <path d="M8 3 4 7l4 4M4 7h16M16 21l4-4-4-4M20 17H4" />,
);
export const CopyIcon = makeIcon(
  'CopyIcon',
  <>
    <rect width="14" height="14" x="8" y="8" rx="2" ry="2" />
    <path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2" />
  </>,
);
export const TrashIcon = makeIcon(
  'TrashIcon',
  <path d="M3 6h18M19 6v14c0 1-1 2-2 2H7c-1 0-2-1-2-2V6M8 6V4c0-1 1-2 2-2h4c1 0 2 1 2 2" />,
);
export const KeyIcon = makeIcon(
  'KeyIcon',
  <>
    <circle cx="7.5" cy="15.5" r="5.5" />
    <path d="m21 2-9.6 9.6M15.5 7.5l3 3L22 7l-3-3" />
  </>,
);
export const UserIcon = makeIcon(
  'UserIcon',
  <>
    <path d="M19 21v-2a4 4 0 0 0-4-4H9a4 4 0 0 0-4 4v2" />
    <circle cx="12" cy="7" r="4" />
  </>,
);
export const LogOutIcon = makeIcon(
  'LogOutIcon',
  <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />,
);
export const BookIcon = makeIcon(
  'BookIcon',
  <path d="M2 3h6a4 4 0 0 1 4 4v14a3 3 0 0 0-3-3H2zM22 3h-6a4 4 0 0 0-4 4v14a3 3 0 0 1 3-3h7z" />,
);
export const HelpIcon = makeIcon(
  'HelpIcon',
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M9.09 9a3 3 0 0 1 5.83 1c0 2-3 3-3 3M12 17h.01" />
  </>,
);
export const FolderIcon = makeIcon(
  'FolderIcon',
  <path d="M4 20h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-7.93a2 2 0 0 1-1.66-.9l-.82-1.2A2 2 0 0 0 7.93 3H4a2 2 0 0 0-2 2v13c0 1.1.9 2 2 2Z" />,
);
export const PlusIcon = makeIcon('PlusIcon', <path d="M5 12h14M12 5v14" />);
export const ShieldIcon = makeIcon('ShieldIcon', <path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" />);
export const ZapIcon = makeIcon('ZapIcon', <path d="M13 2 3 14h9l-1 8 10-12h-9l1-8z" />);
export const MailIcon = makeIcon(
  'MailIcon',
  <>
    <rect width="20" height="16" x="2" y="4" rx="2" />
    <path d="m22 7-8.97 5.7a1.94 1.94 0 0 1-2.06 0L2 7" />
  </>,
);
export const AlertIcon = makeIcon(
  'AlertIcon',
  <path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3ZM12 9v4M12 17h.01" />,
);
export const CrownIcon = makeIcon('CrownIcon', <path d="m2 4 3 12h14l3-12-6 7-4-7-4 7-6-7zM5 20h14" />);
export const LayoutIcon = makeIcon(
  'LayoutIcon',
  <>
    <rect width="18" height="18" x="3" y="3" rx="2" />
    <path d="M3 9h18M9 21V9" />
  </>,
);
export const LockIcon = makeIcon(
  'LockIcon',
  <>
    <rect x="4" y="11" width="16" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </>,
);
