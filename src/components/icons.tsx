import type { LucideIcon, LucideProps } from 'lucide-react';
import {
  LucideArrowDownToLine,
  LucideArrowLeft,
  LucideArrowRight,
  LucideArrowUpFromLine,
  LucideBan,
  LucideBell,
  LucideBookOpen,
  LucideBuildingComplex,
  LucideChartColumn,
  LucideCheck,
  LucideChevronDown,
  LucideChevronLeft,
  LucideChevronRight,
  LucideCircleCheck,
  LucideClock,
  LucideCode,
  LucideCopy,
  LucideDatabase,
  LucideExternalLink,
  LucideFileCode,
  LucideFileText,
  LucideFunnel,
  LucideLandmark,
  LucideLayers,
  LucideLink,
  LucideLoaderCircle,
  LucideLogOut,
  LucideMail,
  LucideMap,
  LucideMapPin,
  LucideMenu,
  LucideMessageCircle,
  LucidePencil,
  LucidePlus,
  LucideReceiptText,
  LucideRefreshCw,
  LucideRotateCcw,
  LucideSearch,
  LucideSend,
  LucideSettings,
  LucideShieldCheck,
  LucideTrash,
  LucideUndo2,
  LucideUsers,
  LucideWallet,
  LucideX,
} from 'lucide-react';

/**
 * The SPA's one icon kit: lucide-react's outline icons (24-unit grid, currentColor), tree-shaken
 * so the bundle carries only the ones named here, under the names the screens use. Decorative:
 * hidden from assistive tech and never focusable, the button or text beside each icon carries the
 * Italian name. Stroke 1.8 as the hand-drawn kit had; `h-4 w-4 shrink-0` unless the caller passes
 * its own className, which replaces the default (size included), so a caller always sets the size.
 */
export type IconProps = Omit<LucideProps, 'ref'>;

function Icon({ icon: Glyph, className = 'h-4 w-4 shrink-0', ...props }: IconProps & { icon: LucideIcon }) {
  return <Glyph aria-hidden="true" focusable="false" strokeWidth={1.8} className={className} {...props} />;
}

export const ArrowLeftIcon = (p: IconProps) => <Icon icon={LucideArrowLeft} {...p} />;
export const ArrowRightIcon = (p: IconProps) => <Icon icon={LucideArrowRight} {...p} />;
export const BadgeCheckIcon = (p: IconProps) => <Icon icon={LucideCircleCheck} {...p} />;
export const BanIcon = (p: IconProps) => <Icon icon={LucideBan} {...p} />;
export const BankIcon = (p: IconProps) => <Icon icon={LucideLandmark} {...p} />;
export const BellIcon = (p: IconProps) => <Icon icon={LucideBell} {...p} />;
export const BookIcon = (p: IconProps) => <Icon icon={LucideBookOpen} {...p} />;
export const BuildingIcon = (p: IconProps) => <Icon icon={LucideBuildingComplex} {...p} />;
export const ChartIcon = (p: IconProps) => <Icon icon={LucideChartColumn} {...p} />;
export const ChatIcon = (p: IconProps) => <Icon icon={LucideMessageCircle} {...p} />;
export const CheckIcon = (p: IconProps) => <Icon icon={LucideCheck} {...p} />;
export const ChevronDownIcon = (p: IconProps) => <Icon icon={LucideChevronDown} {...p} />;
export const ChevronLeftIcon = (p: IconProps) => <Icon icon={LucideChevronLeft} {...p} />;
export const ChevronRightIcon = (p: IconProps) => <Icon icon={LucideChevronRight} {...p} />;
export const ClockIcon = (p: IconProps) => <Icon icon={LucideClock} {...p} />;
export const CloseIcon = (p: IconProps) => <Icon icon={LucideX} {...p} />;
export const CodeIcon = (p: IconProps) => <Icon icon={LucideCode} {...p} />;
export const CopyIcon = (p: IconProps) => <Icon icon={LucideCopy} {...p} />;
export const DatabaseIcon = (p: IconProps) => <Icon icon={LucideDatabase} {...p} />;
export const DownloadIcon = (p: IconProps) => <Icon icon={LucideArrowDownToLine} {...p} />;
export const ExternalIcon = (p: IconProps) => <Icon icon={LucideExternalLink} {...p} />;
export const FileCodeIcon = (p: IconProps) => <Icon icon={LucideFileCode} {...p} />;
export const FilePdfIcon = (p: IconProps) => <Icon icon={LucideFileText} {...p} />;
export const FilterIcon = (p: IconProps) => <Icon icon={LucideFunnel} {...p} />;
export const LayersIcon = (p: IconProps) => <Icon icon={LucideLayers} {...p} />;
export const LinkIcon = (p: IconProps) => <Icon icon={LucideLink} {...p} />;
export const LogoutIcon = (p: IconProps) => <Icon icon={LucideLogOut} {...p} />;
export const MailIcon = (p: IconProps) => <Icon icon={LucideMail} {...p} />;
export const MapIcon = (p: IconProps) => <Icon icon={LucideMap} {...p} />;
export const MenuIcon = (p: IconProps) => <Icon icon={LucideMenu} {...p} />;
export const PencilIcon = (p: IconProps) => <Icon icon={LucidePencil} {...p} />;
export const PinIcon = (p: IconProps) => <Icon icon={LucideMapPin} {...p} />;
export const PlusIcon = (p: IconProps) => <Icon icon={LucidePlus} {...p} />;
export const ReceiptIcon = (p: IconProps) => <Icon icon={LucideReceiptText} {...p} />;
export const RefreshIcon = (p: IconProps) => <Icon icon={LucideRefreshCw} {...p} />;
export const ResetIcon = (p: IconProps) => <Icon icon={LucideRotateCcw} {...p} />;
export const SearchIcon = (p: IconProps) => <Icon icon={LucideSearch} {...p} />;
export const SendIcon = (p: IconProps) => <Icon icon={LucideSend} {...p} />;
export const SettingsIcon = (p: IconProps) => <Icon icon={LucideSettings} {...p} />;
export const ShieldIcon = (p: IconProps) => <Icon icon={LucideShieldCheck} {...p} />;
export const SpinnerIcon = (p: IconProps) => <Icon icon={LucideLoaderCircle} {...p} />;
export const TrashIcon = (p: IconProps) => <Icon icon={LucideTrash} {...p} />;
export const UndoIcon = (p: IconProps) => <Icon icon={LucideUndo2} {...p} />;
export const UploadIcon = (p: IconProps) => <Icon icon={LucideArrowUpFromLine} {...p} />;
export const UsersIcon = (p: IconProps) => <Icon icon={LucideUsers} {...p} />;
export const WalletIcon = (p: IconProps) => <Icon icon={LucideWallet} {...p} />;
